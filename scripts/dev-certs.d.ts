// Types for scripts/dev-certs.js (plain CommonJS, shared by webpack.config.js, npm start and the sandbox CLI).
export interface HttpsOptions {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
  /** Where the certificate came from, for messages. */
  source: string;
  certPath: string;
  /** The file to trust in a browser. */
  caPath: string;
}
export declare function getHttpsOptions(options?: { log?: (message: string) => void; platform?: NodeJS.Platform }): Promise<HttpsOptions>;
export declare function findUsableCertificate(): HttpsOptions | null;
export declare function problemWith(certPem: string | Buffer, keyPem: string | Buffer, now?: number): string | null;
export declare const OFFICE_DIR: string;
export declare const LOCAL_DIR: string;
