import type { DisplayCondition } from 'n8n-workflow';

/**
 * The `@version` condition of a field shown on this node version and on every later one (n8n's
 * `_cnd: { gte }`, as Google Sheets v2 gates its current fields), so that a new node version keeps
 * today's fields without an edit. A meaning frozen on an older version is gated exactly instead
 * (`'@version': [1]`).
 */
export function fromVersion(version: number): Array<number | DisplayCondition> {
	return [{ _cnd: { gte: version } }];
}
