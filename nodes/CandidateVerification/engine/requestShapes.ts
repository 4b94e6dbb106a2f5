import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { isServiceSuccess, refusalProblems } from '../../shared/transport/errors';
import type { OtherShape, PreparedRequest } from './operation';

type Shape = 'declared' | 'other';

/** What each credential's service took (per process: each queue-mode worker learns it once). */
const learned = new Map<string, Shape>();
/** The request that is learning it now: the others wait for it instead of each trying both. */
const learning = new Map<string, Promise<void>>();

function refusedForShape(response: IN8nHttpFullResponse, shape: OtherShape): boolean {
	const problems = refusalProblems(response);
	return problems !== undefined && shape.isAbout(problems);
}

/**
 * Sends one item in the shape this credential's service took before (the declared one until then).
 * The other shape is tried once only after a refusal about the shape that certainly created nothing
 * (the service's envelope with a non-zero code): never after a lost answer, which `send` throws.
 * It runs inside the row's claim (duplicate protection), and the row's identity is the declared
 * body whatever the shape sent. Of two refusals the one not about the shape is returned.
 */
export async function sendInLearnedShape(
	key: string,
	shape: OtherShape,
	prepared: PreparedRequest,
	/** Sends the item's request as prepared, or with the body given. */
	send: (body?: IDataObject) => Promise<IN8nHttpFullResponse>,
): Promise<IN8nHttpFullResponse> {
	const other = shape.body(prepared);
	if (other === undefined) return await send();
	while (!learned.has(key) && learning.has(key)) await learning.get(key);
	let done: (() => void) | undefined;
	if (!learned.has(key)) learning.set(key, new Promise<void>((resolve) => (done = resolve)));
	try {
		const bodies: Record<Shape, IDataObject | undefined> = { declared: undefined, other };
		const first = learned.get(key) ?? 'declared';
		const response = await send(bodies[first]);
		if (!refusedForShape(response, shape)) {
			if (isServiceSuccess(response)) learned.set(key, first);
			return response;
		}
		const second: Shape = first === 'declared' ? 'other' : 'declared';
		const retried = await send(bodies[second]);
		if (isServiceSuccess(retried)) learned.set(key, second);
		return refusedForShape(retried, shape) ? response : retried;
	} finally {
		if (done) {
			learning.delete(key);
			done();
		}
	}
}

/** For tests: forget what was learned (a new process). */
export function forgetLearnedShapes(): void {
	learned.clear();
}
