// Types of scripts/sdk-reference.mjs for its test (tests/contract/sdk-reference.test.ts).
export declare const REPO_ROOT: string;
export declare const REFERENCE_FILE: string;
export declare function renderReference(root?: string): string;
