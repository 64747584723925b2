// Types for scripts/page-security.js (plain CommonJS so webpack.config.js can require it without ts-node).
export declare const OFFICE_JS_ORIGIN: 'https://appsforoffice.microsoft.com';
export declare const SANDBOX_ORIGINS: readonly string[];
export declare const LOOPBACK_ANY_PORT: readonly string[];
export declare function apiOrigin(input: string): string;
export declare function apiConnectSources(input: string): string[];
export declare function contentSecurityPolicy(options?: { connect?: readonly string[]; officeJs?: boolean; devSocket?: string | null }): string;
export declare function officeCorsHeaders(origin: string | undefined): Record<string, string>;
