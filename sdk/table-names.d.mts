export declare function tablePrefix(pluginId: string): string;
export declare function tablesOutsideNamespace(manifest: { id: string; tables?: readonly string[] }): string[];
export declare function tableNamespaceProblem(manifest: { id: string; tables?: readonly string[] }): string | null;
