// Types of bench/cluster-lab.mjs for the two-instance test (tests/e2e/cluster-nginx.test.ts).
export declare const ROOT: string;
export declare const NGINX: string;
export declare const REDIS_URL: string;
export declare const PASSWORD: string;

export interface PostgresDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}
export declare function createPostgresDatabase(): Promise<PostgresDatabase>;

export type ClusterEnv = Record<string, string>;
export declare function clusterEnv(options: { databaseUrl: string; redis?: boolean; extra?: Record<string, string> }): ClusterEnv;
export declare function freePort(): Promise<number>;

export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly running: boolean;
  /** the process's log lines (JSON) so far */
  output: string;
  start(): Promise<Instance>;
  /** resolves with the exit code (null after a kill) once the process is gone */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  kill(): Promise<number | null>;
  stop(): Promise<number | null>;
  close(): Promise<void>;
}
export declare function startInstance(name: string, env: ClusterEnv, options?: { port?: number }): Promise<Instance>;

export declare function nginxConfigFromDocs(options: { ports: number[]; listenPort: number; dir: string }): string;
export interface Nginx {
  port: number;
  url: string;
  conf: string;
  errorLog(): string;
  stop(): Promise<void>;
}
export declare function startNginx(ports: number[]): Promise<Nginx>;

export interface Answer {
  /** 0 for a network error */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the route answered
  json: any;
}
export interface RequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}
export interface HttpClient {
  request(base: string, options: RequestOptions): Promise<Answer>;
  close(): void;
}
export declare function httpClient(options?: { maxSockets?: number }): HttpClient;
export declare function nextClientAddress(): string;

export interface Account {
  uuid: string;
  username: string;
  cookie: string;
}
export declare function registerUser(client: HttpClient, base: string, tag: string): Promise<Account>;
export declare function login(client: HttpClient, base: string, username: string, password?: string): Promise<string>;
export declare function setRole(databaseUrl: string, uuid: string, roleId: number): Promise<void>;
export declare function credit(client: HttpClient, base: string, rootCookie: string, uuid: string, amount: number): Promise<void>;

export interface GiftSubmission {
  sender: Account;
  body: { recipient: string; amount: number; idempotency_key: string };
}
export declare function giftSubmission(sender: Account, recipientUuid: string, amount: number): GiftSubmission;
export declare function sendGift(client: HttpClient, base: string, submission: GiftSubmission): Promise<Answer>;

export interface WalletBooks {
  held: number;
  fees: number;
  minted: number;
  gifts: number;
  mismatched: number;
}
export declare function walletBooks(databaseUrl: string): Promise<WalletBooks>;
export declare function pool(concurrency: number, total: number, work: (index: number) => Promise<void>): Promise<void>;
