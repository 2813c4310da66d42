/** A `.css` file imported by a script is its minified text (scripts/build-browser.js), for adoptStyles. */
declare module '*.css' {
  const text: string;
  export default text;
}
