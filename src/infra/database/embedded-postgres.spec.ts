describe('the embedded database', () => {
  // PGlite is loaded with import(), which jest runs only under --experimental-vm-modules: this is
  // what a plain `npx jest` needs jest.config.js to provide (test/dev/plain-jest.e2e-spec.ts).
  it("loads PGlite's module by import()", async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    expect(typeof PGlite.create).toBe('function');
  });
});
