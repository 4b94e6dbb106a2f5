'use strict';

const { reply } = require('./http-utils');
const { validate, transitionSchema } = require('./validation');

const invalidControl = (problems) => reply.failure(400, problems.join('/'));

/**
 * Test and demo helpers under /__sandbox (no API key, plain JSON answers, never recorded).
 * deps: { requests, snapshot, clock, state, moveCheck, concurrency }.
 */
function createControlRoutes({ requests, snapshot, clock, state, moveCheck, concurrency }) {
	function listRequests() {
		return reply.json({ requests });
	}

	function clearRequests() {
		const cleared = requests.length;
		requests.length = 0;
		return reply.json({ cleared });
	}

	function getConcurrency() {
		return reply.json(concurrency.stats());
	}

	function resetConcurrency() {
		concurrency.reset();
		return reply.json(concurrency.stats());
	}

	function getState() {
		return reply.json(snapshot());
	}

	function advanceClock({ body }) {
		const minutes = body && body.advanceMinutes;
		if (typeof minutes !== 'number' || !Number.isFinite(minutes)) return invalidControl(['"advanceMinutes" must be a number']);
		clock.advance(minutes);
		return reply.json({ now: clock.now().toISOString(), offsetMinutes: clock.offsetMinutes() });
	}

	/** Moves one check to any state (e.g. COMPLETED) and notifies the webhooks, as the real service would. */
	function transition({ body }) {
		const problems = validate(transitionSchema, body);
		if (problems.length) return invalidControl(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		moveCheck(transaction, body.verificationName, body.newState);
		const { transactionId, verificationName, newState } = body;
		return reply.json({ transactionId, verificationName, newState });
	}

	return [
		{ method: 'GET', path: '/__sandbox/requests', handler: listRequests },
		{ method: 'DELETE', path: '/__sandbox/requests', handler: clearRequests },
		{ method: 'GET', path: '/__sandbox/state', handler: getState },
		{ method: 'GET', path: '/__sandbox/concurrency', handler: getConcurrency },
		{ method: 'DELETE', path: '/__sandbox/concurrency', handler: resetConcurrency },
		{ method: 'POST', path: '/__sandbox/clock', body: 'json', handler: advanceClock },
		{ method: 'POST', path: '/__sandbox/transition', body: 'json', handler: transition },
	];
}

module.exports = { createControlRoutes };
