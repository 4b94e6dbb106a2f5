'use strict';

const { createHash, randomBytes } = require('node:crypto');

const { CHECK_STATES, NOTIFICATION_ACTIONS, NOTIFY_CHECK_BY, PAGES_MODES } = require('./constants');
const { reply } = require('./http-utils');
const ids = require('./ids');
const transactions = require('./transactions');
const { validate, transitionSchema, raiseInsufficiencySchema, skipSchema } = require('./validation');

const MAX_GENERATED_FILE_BYTES = 512 * 1024 * 1024;
const PDF_HEADER = Buffer.from('%PDF-1.4\n');

const invalidControl = (problems) => reply.failure(400, problems.join('/'));

/**
 * Test and demo helpers under /__sandbox (no API key, plain JSON answers, never recorded).
 * deps: { requests, snapshot, clock, state, moveCheck, notifyAction, concurrency, files, setLatency }.
 */
function createControlRoutes({ requests, snapshot, clock, state, moveCheck, notifyAction, concurrency, files, setLatency }) {
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

	/** From now on every request whose path starts with one of `pathPrefixes` gets a 502 gateway page; [] ends it. */
	function setFailures({ body }) {
		const prefixes = body && body.pathPrefixes;
		if (!Array.isArray(prefixes) || !prefixes.every((prefix) => typeof prefix === 'string' && prefix.startsWith('/')))
			return invalidControl(['"pathPrefixes" must be an array of paths']);
		state.failingPaths.clear();
		for (const prefix of prefixes) state.failingPaths.add(prefix);
		return reply.json({ pathPrefixes: [...state.failingPaths] });
	}

	/** Moves one check to any state (e.g. COMPLETED) and notifies the webhooks, as the real service would. */
	function transition({ body }) {
		const problems = validate(transitionSchema, body);
		if (problems.length) return invalidControl(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		moveCheck(transaction, transactions.storedCheckName(state.pages, body.verificationName), body.newState);
		const { transactionId, verificationName, newState } = body;
		return reply.json({ transactionId, verificationName, newState });
	}

	/**
	 * Marks a check the form lets the candidate skip as skipped (markedAsSkip, shown in current pages
	 * mode), as the candidate does at the service. Its state stays as it was and nothing is notified
	 * (sandbox choices: no public page shows either).
	 */
	function markSkipped({ body }) {
		const problems = validate(skipSchema, body);
		if (problems.length) return invalidControl(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		const check = transactions.findCheck(transaction, transactions.storedCheckName(state.pages, body.verificationName));
		const form = state.forms.get(transaction.formId);
		const listed = check && form && form.verificationList.find((item) => item.name === check.name);
		if (!listed || listed.skipAllowed !== true) {
			return invalidControl(['"verificationName" is not a check of this transaction that the form lets the candidate skip']);
		}
		check.markedAsSkip = true;
		return reply.json({ transactionId: transaction.transactionId, verificationName: check.name, markedAsSkip: true });
	}

	/**
	 * Raises an insufficiency on a check, as the real service does when it needs more from the
	 * candidate: state INSUFFICIENT_DATA, open questions (item shape presumed), and a notification
	 * { action: 'insufficiency-raised', transactionId, verificationId }.
	 */
	function raiseInsufficiency({ body }) {
		const problems = validate(raiseInsufficiencySchema, body);
		if (problems.length) return invalidControl(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		const at = clock.now().toISOString();
		const name = transactions.storedCheckName(state.pages, body.verificationName);
		const check = transactions.updateCheck(transaction, name, { state: CHECK_STATES.insufficientData, at });
		const asked = body.insufficiencies || [{ label: 'Please provide the missing detail', type: 'text' }];
		check.insufficiencies = asked.map((item) => ({
			insufficiencyId: item.insufficiencyId || ids.objectId(clock.now()),
			label: item.label,
			type: item.type || 'text',
		}));
		notifyAction(transaction, check, NOTIFICATION_ACTIONS.insufficiencyRaised);
		return reply.json({
			transactionId: transaction.transactionId,
			verificationName: check.name,
			verificationId: check.subType,
			state: check.state,
			insufficiencyData: check.insufficiencies,
		});
	}

	/** How notifications name the check in verificationId from now on: its ID (subType) or its name. */
	function setNotifyCheckBy({ body }) {
		const by = body && body.by;
		if (!NOTIFY_CHECK_BY.includes(by)) {
			return invalidControl([`"by" must be one of [${NOTIFY_CHECK_BY.join(', ')}]`]);
		}
		state.notifyCheckBy = by;
		return reply.json({ by });
	}

	/**
	 * Which description the service follows from now on where the contract and the provider's current
	 * public pages differ: 'contract' or 'current'. Stored data is kept; reads answer in the new mode.
	 */
	function setPages({ body }) {
		const pages = body && body.pages;
		if (!PAGES_MODES.includes(pages)) return invalidControl([`"pages" must be one of [${PAGES_MODES.join(', ')}]`]);
		state.pages = pages;
		return reply.json({ pages });
	}

	/**
	 * Adds a private file of random bytes, larger than an API upload may be (e.g. 100 MiB for a
	 * download test). With contentType application/pdf the bytes start with a PDF header (a client
	 * that sniffs the first bytes sees a PDF, never JSON by chance). Answers its private URL, size and SHA-256.
	 */
	function addFile({ body }) {
		const { sizeBytes, filename = 'large-file.bin', contentType = 'application/octet-stream' } = body || {};
		if (!Number.isInteger(sizeBytes) || sizeBytes < 1 || sizeBytes > MAX_GENERATED_FILE_BYTES) {
			return invalidControl([`"sizeBytes" must be an integer from 1 to ${MAX_GENERATED_FILE_BYTES}`]);
		}
		const data = randomBytes(sizeBytes);
		if (contentType === 'application/pdf') PDF_HEADER.copy(data, 0, 0, Math.min(sizeBytes, PDF_HEADER.length));
		const file = files.add({ filename, contentType, data, source: 'control' });
		const sha256 = createHash('sha256').update(data).digest('hex');
		return reply.json({ url: files.privateUrl(file), size: data.length, sha256 });
	}

	/** The service refuses candidates of these names (code -1) until the list is replaced. */
	function setRefusals({ body }) {
		const names = body && body.names;
		if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
			return invalidControl(['"names" must be a list of candidate names']);
		}
		state.refusedNames = new Set(names);
		return reply.json({ names });
	}

	/**
	 * From now on API and file requests (those whose path contains one of `paths`, when given) are
	 * answered `ms` later; with `hold: true` the service acts on each request when it arrives (a
	 * candidate exists at once) and only the answer waits. `{ ms: 0 }` restores the latency the
	 * sandbox was started with. Requests already waiting keep their time.
	 */
	function setLatencyControl({ body }) {
		const { ms, paths, hold = false } = body || {};
		const problems = [];
		if (!Number.isInteger(ms) || ms < 0 || ms > 3_600_000) problems.push('"ms" must be an integer from 0 to 3600000');
		if (paths !== undefined && (!Array.isArray(paths) || !paths.every((part) => typeof part === 'string' && part))) {
			problems.push('"paths" must be a list of non-empty strings');
		}
		if (typeof hold !== 'boolean') problems.push('"hold" must be true or false');
		if (problems.length) return invalidControl(problems);
		setLatency(ms === 0 ? undefined : { ms, paths, hold });
		return reply.json({ ms, paths: paths ?? null, hold: ms === 0 ? false : hold });
	}

	return [
		{ method: 'POST', path: '/__sandbox/latency', body: 'json', handler: setLatencyControl },
		{ method: 'POST', path: '/__sandbox/refusals', body: 'json', handler: setRefusals },
		{ method: 'POST', path: '/__sandbox/failures', body: 'json', handler: setFailures },
		{ method: 'POST', path: '/__sandbox/files', body: 'json', handler: addFile },
		{ method: 'GET', path: '/__sandbox/requests', handler: listRequests },
		{ method: 'DELETE', path: '/__sandbox/requests', handler: clearRequests },
		{ method: 'GET', path: '/__sandbox/state', handler: getState },
		{ method: 'GET', path: '/__sandbox/concurrency', handler: getConcurrency },
		{ method: 'DELETE', path: '/__sandbox/concurrency', handler: resetConcurrency },
		{ method: 'POST', path: '/__sandbox/clock', body: 'json', handler: advanceClock },
		{ method: 'POST', path: '/__sandbox/transition', body: 'json', handler: transition },
		{ method: 'POST', path: '/__sandbox/insufficiency', body: 'json', handler: raiseInsufficiency },
		{ method: 'POST', path: '/__sandbox/skip', body: 'json', handler: markSkipped },
		{ method: 'POST', path: '/__sandbox/notify-check-by', body: 'json', handler: setNotifyCheckBy },
		{ method: 'POST', path: '/__sandbox/pages', body: 'json', handler: setPages },
	];
}

module.exports = { createControlRoutes };
