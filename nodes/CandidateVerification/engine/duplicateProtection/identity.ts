import { createHash } from 'node:crypto';

/** A row's hash: the operation, the service's environment, and the key or the request as sent. */
export function rowIdentity(identityBase: unknown[], request: unknown, duplicateKey?: string) {
	const what = duplicateKey === undefined ? ['request', request] : ['key', duplicateKey];
	return createHash('sha256')
		.update(JSON.stringify([...identityBase, ...what]))
		.digest('hex');
}
