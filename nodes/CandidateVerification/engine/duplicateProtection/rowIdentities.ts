import type { CheckedItem } from '../checkItems';
import { rowIdentity } from './identity';
import type { GateSetup } from './setup';

/** The rows' identities of one run: each item's row, and the item of each row that is sent. */
export class RowIdentities {
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
}
