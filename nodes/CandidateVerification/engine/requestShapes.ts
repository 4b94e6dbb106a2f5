import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { isServiceSuccess, refusalProblems } from '../../shared/transport/errors';
import type { OtherShape, PreparedRequest } from './operation';

type Shape = 'declared' | 'other';

/** What each credential's service took (per process: each queue-mode worker learns it once). */
const learned = new Map<string, Shape>();
/** The request that is learning it now: the others wait for it instead of each trying both. */
const learning = new Map<string, Promise<void>>();

/** The answer to send in the end, and both refusals when both shapes were refused. */
export interface ShapedAnswer {
	response: IN8nHttpFullResponse;
	/**
	 * Set when the other shape was refused too for a reason naming the shape's fields: the error
	 * then gives both refusals (either may be the one to act on). `response` is the second one.
	 */
	bothRefused?: { firstShape: string; firstProblems: string[]; secondShape: string };
}

/**
 * Sends one item in the shape this credential's service took before (the declared one until then).
 * The other shape is tried once only after a refusal of the shape itself that certainly created
 * nothing (the service's envelope with a non-zero code, problems `refusesShape` reads as about the
 * shape sent, never a value in it): never after a lost answer, which `send` throws. A shape is
 * learned only from an acceptance. It runs inside the row's claim (duplicate protection), and the
 * row's identity is the declared body whatever the shape sent. Of two refusals the second is
 * returned, with the first when the second names the shape's fields too.
 */
export async function sendInLearnedShape(
	key: string,
	shape: OtherShape,
	prepared: PreparedRequest,
	/** Sends the item's request as prepared, or with the body given. */
	send: (body?: IDataObject) => Promise<IN8nHttpFullResponse>,
): Promise<ShapedAnswer> {
	const other = shape.body(prepared);
	if (other === undefined) return { response: await send() };
	while (!learned.has(key) && learning.has(key)) await learning.get(key);
	let done: (() => void) | undefined;
	if (!learned.has(key)) learning.set(key, new Promise<void>((resolve) => (done = resolve)));
	try {
		const bodies: Record<Shape, IDataObject | undefined> = { declared: undefined, other };
		const sent: Record<Shape, IDataObject> = { declared: prepared.body ?? {}, other };
		const first = learned.get(key) ?? 'declared';
		const response = await send(bodies[first]);
		const refused = refusalProblems(response);
		if (refused === undefined || !shape.refusesShape(refused, sent[first])) {
			if (isServiceSuccess(response)) learned.set(key, first);
			return { response };
		}
		const second: Shape = first === 'declared' ? 'other' : 'declared';
		const retried = await send(bodies[second]);
		if (isServiceSuccess(retried)) learned.set(key, second);
		const refusedAgain = refusalProblems(retried);
		return refusedAgain !== undefined && shape.namesShapeFields(refusedAgain)
			? {
					response: retried,
					bothRefused: {
						firstShape: shape.labels[first],
						firstProblems: refused,
						secondShape: shape.labels[second],
					},
				}
			: { response: retried };
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
