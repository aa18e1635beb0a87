/**
 * A project list page's rows: which columns a page reads and how a raw row becomes a list item. Apart from
 * the list's statements (`projectListQuery.ts`) because it needs no database to be used: `bench/sqliteBindings.ts`
 * runs these under other SQLite bindings than the server's.
 */
import type { ProjectRow } from "./records/projects";

/**
 * A project as a list page reads it: the columns its list item shows, and what it holds, counted. Not its
 * organization: a page is of one organization, the caller's.
 */
export type ProjectListRow = Pick<ProjectRow, "id" | "name" | "description"> & { workspaceCount: number; teamCount: number };

/**
 * What a list page reads of each of its projects (aliased `alias`), in the order {@link projectListRow} reads
 * them: three columns and the two kept counts, so that a page costs by its size, not by its organization's,
 * in one statement, and counts nothing. Each column read is a value made for JavaScript: no more are read.
 */
export function projectListColumns(alias: string): string {
    return `${alias}.id, ${alias}.name, ${alias}.description, ${alias}.workspace_count, ${alias}.team_count`;
}

/** How many values {@link projectListColumns} reads: what a list statement answers after them is at this index. */
export const PROJECT_LIST_COLUMN_COUNT = 5;

/**
 * One raw row (an array, from a statement in `raw` mode) that starts with {@link projectListColumns}, as a
 * {@link ProjectListRow}. A page's rows are read raw and made into objects here: better-sqlite3 builds a row
 * object key by key, which cost about a sixth of a page's SQL time.
 */
export function projectListRow(values: readonly unknown[]): ProjectListRow {
    return {
        id: values[0] as string,
        name: values[1] as string,
        description: values[2] as string | null,
        workspaceCount: values[3] as number,
        teamCount: values[4] as number,
    };
}
