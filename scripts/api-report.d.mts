// Types of scripts/api-report.mjs for the test that compares the committed report (sdk/api-report.test.ts).
export interface EntryPoint {
  /** the import path, e.g. @orepanel/sdk/server */
  name: string;
  /** its source file, relative to the repository */
  source: string;
  /** its report file in REPORT_DIR */
  report: string;
}
export declare const REPO_ROOT: string;
export declare const REPORT_DIR: string;
export declare const UPDATE_COMMAND: string;
export declare const ENTRY_POINTS: readonly EntryPoint[];
export declare function codeOnly(text: string, options?: { strings?: boolean }): string;
export declare function splitStatements(text: string): string[];
export declare function generateApiReport(root?: string, entries?: readonly EntryPoint[]): Map<string, string>;
export declare function readCommittedReport(root?: string): Map<string, string>;
export declare function lineDiff(before: string, after: string, context?: number): string;
export declare function compareReports(committed: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>): string;
export declare function apiReportOfDeclarations(declarationsDir: string, root?: string, entries?: readonly EntryPoint[]): Map<string, string>;
