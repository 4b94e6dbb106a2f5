import { createHash } from 'node:crypto';

/**
 * A row's hash: the operation, the service's environment, and the key or the request as sent. A
 * key counts within the operation's scope (the form, the transaction and check…): the same key in
 * another scope is another row. Without a scope, or without a key, the hash is 0.4.0's.
 */
export function rowIdentity(
	identityBase: unknown[],
	request: unknown,
	duplicateKey?: string,
	scope?: unknown,
) {
	const what =
		duplicateKey === undefined
			? ['request', request]
			: scope === undefined
				? ['key', duplicateKey]
				: ['key', duplicateKey, 'scope', scope];
	return createHash('sha256')
		.update(JSON.stringify([...identityBase, ...what]))
		.digest('hex');
}
