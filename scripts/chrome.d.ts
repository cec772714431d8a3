export declare const ROOT: string;
export declare const BROWSER_CACHE: string;
/** The browser to use, or null when none is found. */
export declare function findChrome(): string | null;
/** Flags that keep Chromium quiet on a closed network (TESTING.md). */
export declare const QUIET_FLAGS: string[];
/** Needed when running as root or in containers; harmless otherwise on Linux. */
export declare const LINUX_CI_FLAGS: string[];
