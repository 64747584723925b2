// Types for scripts/manifest-url.js (plain CommonJS so webpack.config.js can require it without ts-node).
export declare const DEV_BASE: 'https://localhost:3000/';
export declare const DEV_ORIGIN: 'https://localhost:3000';
export declare function normalizeBaseUrl(input: string): string;
export declare function rewriteManifestUrls(xml: string, baseUrl: string): string;
export declare function stripXmlComments(xml: string): string;
