// The database boundary (issue 10 item 3): a plugin's database handle reads and writes the tables it
// declares in its plugin.json (`tables`), reads the read-only views the core offers every plugin, and
// nothing else — core data (accounts, sessions, balances) changes only through core services, so a
// core migration cannot break a plugin silently. The check runs as a Kysely plugin on the query's
// operation-node tree before any SQL is sent; a refused query throws a TableBoundaryError naming the
// plugin and the table. It guards against mistakes, not against malice: plugins are trusted code.
//
// Raw SQL: a query made of raw SQL alone (`sql\`…\`.execute(db)`) is refused, and a raw fragment inside
// a built query may be an expression only — no keyword that names a table (select, from, join, into,
// update…) — so every table a query touches is a node this check can see.
import {
  AliasNode,
  AlterTableNode,
  CreateIndexNode,
  CreateTableNode,
  CreateViewNode,
  DeleteQueryNode,
  DropIndexNode,
  DropTableNode,
  DropViewNode,
  FromNode,
  InsertQueryNode,
  JoinNode,
  ListNode,
  MergeQueryNode,
  RawNode,
  ReferencesNode,
  TableNode,
  UpdateQueryNode,
  UsingNode,
  WithNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/** 'index': create or drop an index on the table in a migration (and nothing else) */
export type TableAccess = 'read' | 'write' | 'index';

/** Core tables a plugin's own tables may point at with a foreign key (rows that go with their account). */
export const REFERENCE_TARGETS: ReadonlySet<string> = new Set(['users']);

export interface TableBoundaryRules {
  pluginId: string;
  /** the tables the plugin declares: read and written by it alone */
  owns: ReadonlySet<string>;
  /** what the core lets every plugin read, never write (the read-only views) */
  readable: ReadonlySet<string>;
  /** table → access beyond the rules: the reviewed exceptions of a first-party plugin (table-exceptions.ts) */
  exceptions?: ReadonlyMap<string, TableAccess>;
  /**
   * A migration's handle: it may also create, alter and drop its own tables, views and indexes, and
   * point foreign keys at its own tables and REFERENCE_TARGETS. At run time every schema change is refused.
   */
  schemaChanges?: boolean;
}

export class TableBoundaryError extends Error {
  readonly code = 'PLUGIN_TABLE_BOUNDARY';
  constructor(
    readonly pluginId: string,
    readonly table: string | null,
    reason: string,
  ) {
    super(`plugin "${pluginId}" ${reason}`);
    this.name = 'TableBoundaryError';
  }
}

const DATA_QUERIES = new Set(['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

// Words that can bring a table (or a statement) into SQL. A fragment is scanned with its quoted
// literals and identifiers removed, so `escape '!'` or a string containing "from" passes.
const TABLE_KEYWORDS =
  /\b(select|from|join|into|update|delete|insert|table|with|merge|using|create|alter|drop|truncate|pragma|attach|detach|vacuum|copy|call|exec|execute|grant|lock|handler|load_file|outfile)\b/i;
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`/g;

function isNode(value: unknown): value is OperationNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

function childrenOf(node: OperationNode): OperationNode[] {
  const children: OperationNode[] = [];
  for (const value of Object.values(node)) {
    if (isNode(value)) children.push(value);
    else if (Array.isArray(value)) for (const item of value) if (isNode(item)) children.push(item);
  }
  return children;
}

function withOf(node: OperationNode): WithNode | undefined {
  const value: unknown = Reflect.get(node, 'with');
  return isNode(value) && WithNode.is(value) ? value : undefined;
}

class QueryCheck {
  constructor(private readonly rules: TableBoundaryRules) {}

  private refuse(table: string | null, reason: string): never {
    throw new TableBoundaryError(this.rules.pluginId, table, reason);
  }

  private allowed(table: string, access: TableAccess): boolean {
    if (this.rules.owns.has(table)) return true;
    if (access === 'read' && this.rules.readable.has(table)) return true;
    const granted = this.rules.exceptions?.get(table);
    return granted === access || (granted === 'write' && access === 'read');
  }

  root(node: RootOperationNode): void {
    if (RawNode.is(node)) this.refuse(null, 'may not run a raw SQL query: build it with the query builder so its tables can be checked');
    if (DATA_QUERIES.has(node.kind)) this.visit(node, new Set());
    else if (this.rules.schemaChanges) this.schemaChange(node);
    else this.refuse(null, `may not change the database schema at run time (${node.kind}): do it in a migration`);
  }

  /** A migration's statement: its own tables, views and indexes only. */
  private schemaChange(node: RootOperationNode): void {
    const none: ReadonlySet<string> = new Set();
    if (CreateTableNode.is(node) || DropTableNode.is(node)) this.table(node.table, 'write', none);
    else if (AlterTableNode.is(node)) {
      this.table(node.table, 'write', none);
      if (node.renameTo) this.table(node.renameTo, 'write', none);
    } else if (CreateIndexNode.is(node)) {
      if (node.table) this.table(node.table, 'index', none);
    } else if (DropIndexNode.is(node)) {
      // SQLite and PostgreSQL name an index without its table: only the name is there to go by
      if (node.table) this.table(node.table, 'index', none);
    } else if (CreateViewNode.is(node) || DropViewNode.is(node)) {
      const name = node.name.identifier.name;
      if (node.name.schema || !this.rules.owns.has(name)) this.refuse(name, `may not create or drop view "${name}": declare it in plugin.json "tables"`);
    } else this.refuse(null, `may not run ${node.kind} in a migration`);
    this.visit(node, none);
  }

  /** A foreign key's target: one of the plugin's own tables, or a core table rows may belong to. */
  private reference(node: ReferencesNode): void {
    const name = node.table.table.identifier.name;
    if (node.table.table.schema || !(this.rules.owns.has(name) || REFERENCE_TARGETS.has(name))) {
      this.refuse(name, `may not point a foreign key at table "${name}": only at its own tables and ${[...REFERENCE_TARGETS].join(', ')}`);
    }
  }

  /** A table named where a query reads from or writes to. */
  private table(node: TableNode, access: TableAccess, ctes: ReadonlySet<string>): void {
    const name = node.table.identifier.name;
    if (node.table.schema) this.refuse(name, `may not name a table in another schema ("${node.table.schema.name}.${name}")`);
    if (ctes.has(name)) {
      if (access === 'write') this.refuse(name, `may not write to "${name}", a common table expression`);
      return;
    }
    if (this.allowed(name, access)) return;
    const why = this.rules.readable.has(name)
      ? 'the core offers it read-only'
      : 'it is not one of its tables (declare the tables it creates in plugin.json "tables"; core data is reached through core services)';
    this.refuse(name, `may not ${access} table "${name}": ${why}`);
  }

  /** Whatever stands where a table may: a table, an aliased one, a subquery, a list (multi-table update). */
  private source(node: OperationNode, access: TableAccess, ctes: ReadonlySet<string>): void {
    if (AliasNode.is(node)) {
      this.source(node.node, access, ctes);
    } else if (TableNode.is(node)) {
      this.table(node, access, ctes);
    } else if (ListNode.is(node)) {
      for (const item of node.items) this.source(item, access, ctes);
    } else if (RawNode.is(node)) {
      // sql.table('name') (a raw node wrapping one node and nothing else) is the one raw source whose table is known
      const only = node.parameters.length === 1 && node.sqlFragments.every((f) => f.trim() === '') ? node.parameters[0] : undefined;
      if (!only) this.refuse(null, 'may not read from raw SQL: name the table with the query builder');
      this.source(only, access, ctes);
    } else {
      if (access === 'write') this.refuse(null, `may not write to a ${node.kind}`);
      this.visit(node, ctes);
    }
  }

  private raw(node: RawNode, ctes: ReadonlySet<string>): void {
    for (const fragment of node.sqlFragments) {
      const bare = fragment.replace(QUOTED, "''");
      if (/;|--|\/\*/.test(bare)) this.refuse(null, `may not use a raw SQL fragment with a statement separator or comment ("${fragment.trim()}")`);
      const keyword = TABLE_KEYWORDS.exec(bare);
      if (keyword) this.refuse(null, `may not use "${keyword[1]}" in a raw SQL fragment ("${fragment.trim()}"): build queries and subqueries with the query builder`);
    }
    for (const parameter of node.parameters) this.visit(parameter, ctes);
  }

  private visit(node: OperationNode, outer: ReadonlySet<string>): void {
    let ctes = outer;
    const withNode = withOf(node);
    if (withNode) {
      // each expression sees the ones before it (and itself when recursive); the query sees them all
      const scope = new Set(outer);
      for (const cte of withNode.expressions) {
        const name = cte.name.table.table.identifier.name;
        if (withNode.recursive) scope.add(name);
        this.visit(cte.expression, new Set(scope));
        scope.add(name);
      }
      ctes = scope;
    }
    if (RawNode.is(node)) {
      this.raw(node, ctes);
      return;
    }
    if (ReferencesNode.is(node)) {
      this.reference(node);
      return;
    }
    if (FromNode.is(node)) {
      for (const from of node.froms) this.source(from, 'read', ctes);
      return;
    }
    if (JoinNode.is(node)) {
      this.source(node.table, 'read', ctes);
      if (node.on) this.visit(node.on, ctes);
      return;
    }
    if (UsingNode.is(node)) {
      for (const table of node.tables) this.source(table, 'read', ctes);
      return;
    }
    if (InsertQueryNode.is(node) && node.into) this.source(node.into, 'write', ctes);
    if (UpdateQueryNode.is(node) && node.table) this.source(node.table, 'write', ctes);
    if (DeleteQueryNode.is(node)) for (const from of node.from.froms) this.source(from, 'write', ctes);
    if (MergeQueryNode.is(node)) this.source(node.into, 'write', ctes);
    for (const child of childrenOf(node)) {
      if (child === withNode) continue;
      if (InsertQueryNode.is(node) && child === node.into) continue;
      if (UpdateQueryNode.is(node) && child === node.table) continue;
      if (DeleteQueryNode.is(node) && child === node.from) continue;
      if (MergeQueryNode.is(node) && child === node.into) continue;
      this.visit(child, ctes);
    }
  }
}

/** Throws a TableBoundaryError when `node` reads or writes a table the rules do not allow. */
export function checkTableBoundary(node: RootOperationNode, rules: TableBoundaryRules): void {
  new QueryCheck(rules).root(node);
}

/** The check as a Kysely plugin: `db.withPlugin(new TableBoundary(rules))`. It never changes a query. */
export class TableBoundary implements KyselyPlugin {
  constructor(readonly rules: TableBoundaryRules) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    checkTableBoundary(node, this.rules);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
