import { closeOpenApps } from './open-apps';

// Registered for every test file (jest.config.js setupFilesAfterEnv); a no-op when the file closed its apps.
afterAll(() => closeOpenApps());
