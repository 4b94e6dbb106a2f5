import type { CheckedItem } from '../checkItems';
import { rowIdentity } from './identity';
import type { GateSetup } from './setup';

/** The rows' identities of one run: each item's row, and which item of a row is sent. */
export class RowIdentities {
	/** The identity of each item this run sends or records (the first of its row). */
	readonly ofItem = new Map<number, string>();

	constructor(
		private readonly setup: GateSetup,
		private readonly checked: CheckedItem[],
	) {}

	/** A row's identity; `sending`: it may be claimed, so its former identities are noted for lookup. */
	identityOf(itemIndex: number, sending = true): string {
		const { operation, record, identityBase, account } = this.setup;
		const { prepared } = this.checked[itemIndex];
		const { duplicateKey } = this.setup.itemKeys[itemIndex];
		const { body, qs, pathParameters } = prepared!;
		const request = { body, qs, pathParameters };
		const declared = operation.duplicateProtection;
		const row = declared?.identity?.(prepared!) ?? request;
		const scope = declared?.scope?.(prepared!);
		const formerRow = declared?.formerIdentity?.(prepared!);
		const identity = rowIdentity(identityBase, row, duplicateKey, scope);
		const facts = { ...account, request, row, duplicateKey, scope, formerRow };
		if (sending) record.migration.note(identity, facts);
		return identity;
	}

	/**
	 * Each row's first item is sent; an item with the same identity as an earlier one (`first`) is
	 * a repeat, the same row twice (`stopAtRepeat`: the first one ends the plan). `settledBefore`: items an earlier try of n8n's
	 * Retry On Fail settled, never sent again, whose repeats are still named.
	 */
	firstOfEachRow(indexes: number[], settledBefore: ReadonlySet<number>, stopAtRepeat: boolean) {
		const rows: number[] = [];
		const repeats: Array<{ itemIndex: number; first: number }> = [];
		const firstItemOf = new Map<string, number>();
		for (const itemIndex of indexes) {
			const settled = settledBefore.has(itemIndex);
			const identity = this.identityOf(itemIndex, !settled);
			const first = firstItemOf.get(identity);
			if (first === undefined) {
				firstItemOf.set(identity, itemIndex);
				if (settled) continue;
				this.ofItem.set(itemIndex, identity);
				rows.push(itemIndex);
				continue;
			}
			repeats.push({ itemIndex, first });
			if (stopAtRepeat) break;
		}
		return { rows, repeats };
	}
}
