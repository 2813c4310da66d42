/** The part of madge's API the folder-cycle test uses (the package ships no types). */
declare module 'madge' {
  interface MadgeResult {
    /** Each file, relative to baseDir, with the files it imports. */
    obj(): Record<string, string[]>;
  }
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, unknown>;
    excludeRegExp?: RegExp[];
  }
  function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
  export = madge;
}
