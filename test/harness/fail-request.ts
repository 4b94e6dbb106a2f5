import * as transport from '../../nodes/shared/transport';

/**
 * Request number `failing` (1-based) of the runs that follow fails as n8n's request helper throws
 * it (e.g. ECONNRESET: the service may have taken it); the others go through. Restore it after use.
 */
export function failRequest(failing: number, failure: { code: string; message: string }) {
	const send = transport.sendWithCredential;
	let count = 0;
	return jest.spyOn(transport, 'sendWithCredential').mockImplementation(async function (
		this: unknown,
		...args
	) {
		count += 1;
		if (count === failing) throw Object.assign(new Error(failure.message), { code: failure.code });
		return await send.apply(this as never, args);
	});
}
