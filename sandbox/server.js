'use strict';

const http = require('node:http');
const { EventEmitter } = require('node:events');

const { API_PREFIXES, MAX_BODY_BYTES, NOTIFY_CHECK_BY, PAGES_MODES, PURPOSES } = require('./constants');
const { reply, writeReply, readBody } = require('./http-utils');
const { parseMultipart, summarizeMultipart } = require('./multipart');
const { compileRoutes, matchRoute } = require('./router');
const { createFileStore } = require('./file-store');
const { createNotifier } = require('./notifier');
const { createApiRoutes } = require('./api-routes');
const { createFileRoutes } = require('./file-routes');
const { createControlRoutes } = require('./control-routes');
const { createKycRoutes } = require('./kyc-routes');
const { buildPdf } = require('./pdf');
const transactions = require('./transactions');

const BAD_GATEWAY_HTML = '<html><body><h1>502 Bad Gateway</h1></body></html>';
const CONTROL_PREFIX = '/__sandbox/';

/** The injected clock plus an offset that tests (or POST /__sandbox/clock) move forward. */
function createClock(now) {
	let baseNow = now;
	let offsetMs = 0;
	return {
		now: () => new Date(baseNow().getTime() + offsetMs),
		setNow(next) {
			baseNow = typeof next === 'function' ? next : () => new Date(next);
		},
		advance(minutes) {
			offsetMs += minutes * 60 * 1000;
		},
		offsetMinutes: () => offsetMs / 60000,
	};
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests being answered right now, and the most at once since the last reset (benchmarks read it). */
function createConcurrencyMeter() {
	let inFlight = 0;
	let maxInFlight = 0;
	let total = 0;
	const sockets = new WeakSet();
	let connections = 0;
	return {
		track(res) {
			inFlight += 1;
			total += 1;
			// Connections the API requests came on since the reset (keep-alive reuse shows as fewer).
			if (!sockets.has(res.socket)) {
				sockets.add(res.socket);
				connections += 1;
			}
			maxInFlight = Math.max(maxInFlight, inFlight);
			res.once('close', () => {
				inFlight -= 1;
			});
		},
		stats: () => ({ inFlight, maxInFlight, requests: total, connections }),
		reset() {
			maxInFlight = inFlight;
			total = 0;
			connections = 0;
		},
	};
}

/** { json, malformed, parts, recorded } where `recorded` is what the request log keeps. */
function parseInput(buffer, contentType) {
	if (buffer.length === 0) return { parts: [], recorded: null };
	if (/^multipart\/form-data/i.test(contentType || '')) {
		const parts = parseMultipart(buffer, contentType);
		return { parts, recorded: summarizeMultipart(parts) };
	}
	const text = buffer.toString('utf8');
	try {
		const json = JSON.parse(text);
		return { json, parts: [], recorded: json };
	} catch {
		return { malformed: true, parts: [], recorded: text };
	}
}

function dispatch(routes, method, path, query, input) {
	const match = matchRoute(routes, method, path);
	if (!match) return reply.failure(404, `Route not found: ${method} ${path}`);
	if (match.route.body === 'json' && input.malformed) return reply.failure(400, 'Malformed JSON body');
	return match.route.handler({ params: match.params, query, body: input.json, parts: input.parts });
}

function urlHost(address) {
	if (address === '0.0.0.0' || address === '::') return '127.0.0.1';
	return address.includes(':') ? `[${address}]` : address;
}

function createState() {
	return {
		purposes: PURPOSES,
		forms: new Map(),
		transactions: new Map(),
		files: new Map(),
		downloadTokens: new Map(),
		signedUrls: new Map(),
		webhookConfigs: new Map(),
		deliveries: [],
		/** Candidate names the service refuses for now (POST /__sandbox/refusals). */
		refusedNames: new Set(),
		/** Path prefixes answered with a 502 gateway page for now (POST /__sandbox/failures). */
		failingPaths: new Set(),
		/** How notifications name the check in verificationId: 'id' or 'name' (POST /__sandbox/notify-check-by). */
		notifyCheckBy: 'id',
		/** Where the contract and the provider's current public pages differ, which one: 'contract' or 'current' (POST /__sandbox/pages). */
		pages: 'contract',
		/** Aadhaar through DigiLocker: transactionId → { redirectUrl, consented } (kyc-routes.js). */
		aadhaarChecks: new Map(),
	};
}

/**
 * A local fake of the Candidate Verification Service.
 * Events on `sandbox.events`: 'request' (a finished recorded request) and 'delivery' (a webhook delivery).
 */
function createSandbox(options = {}) {
	const {
		apiKey = 'sandbox-api-key',
		orgId = 'sandbox-org',
		now = () => new Date(),
		publicBaseUrl,
		notifyDelayMs = 0,
		latencyMs = 0,
		generatedFileBytes = 0,
		maxBodyBytes = MAX_BODY_BYTES,
		notifyCheckBy = 'id',
		pages = 'contract',
	} = options;
	if (!NOTIFY_CHECK_BY.includes(notifyCheckBy)) {
		throw new Error(`notifyCheckBy must be one of ${NOTIFY_CHECK_BY.join(', ')}`);
	}
	if (!PAGES_MODES.includes(pages)) throw new Error(`pages must be one of ${PAGES_MODES.join(', ')}`);

	const clock = createClock(now);
	const events = new EventEmitter();
	const state = createState();
	state.notifyCheckBy = notifyCheckBy;
	state.pages = pages;
	const requests = [];
	let baseUrl;

	const files = createFileStore({ state, clock, getBaseUrl: () => baseUrl });
	/**
	 * Latency set at run time (POST /__sandbox/latency); `undefined` means the constructor's latencyMs.
	 * { ms, paths, hold }: paths (substrings of the request path) limit it to those requests; with hold
	 * the service acts on a request when it arrives and answers it ms later (the worst case for a
	 * client that loses the answer), without hold it waits ms before acting and answering.
	 */
	let latency;
	const latencyFor = (path) => {
		if (!latency) return { ms: latencyMs, hold: false };
		if (latency.paths && !latency.paths.some((part) => path.includes(part))) return { ms: 0, hold: false };
		return latency;
	};
	const sampleFile = files.add({
		filename: 'sample-document.pdf',
		contentType: 'application/pdf',
		data: buildPdf(['Candidate Verification Service sandbox', 'Sample private document']),
		source: 'sample',
	});
	// A large private file made of generated bytes, streamed on every download and never held in memory.
	const generatedFile =
		generatedFileBytes > 0 ? files.addGenerated({ filename: 'generated-document.pdf', size: generatedFileBytes }) : undefined;
	const concurrency = createConcurrencyMeter();
	const notifier = createNotifier({ state, clock, events, delayMs: notifyDelayMs });

	/** The check's name or its ID (subType), as the sandbox is set to notify. */
	const notifiedId = (check) => (state.notifyCheckBy === 'id' ? check.subType : check.name);

	function moveCheck(transaction, verificationName, newState, request) {
		const check = transactions.updateCheck(transaction, verificationName, { state: newState, request, at: clock.now().toISOString() });
		notifier.notify({ transactionId: transaction.transactionId, verificationId: notifiedId(check), newState });
	}

	/**
	 * From the provider's public documentation: insufficiency notifications carry `action` and the
	 * verificationId; that they carry the transactionId too is presumed.
	 */
	function notifyAction(transaction, check, action) {
		notifier.notify({ action, transactionId: transaction.transactionId, verificationId: notifiedId(check) });
	}

	function snapshot() {
		return {
			now: clock.now().toISOString(),
			orgId,
			pages: state.pages,
			sampleFileUrl: files.privateUrl(sampleFile),
			...(generatedFile && { generatedFileUrl: files.privateUrl(generatedFile) }),
			purposes: state.purposes,
			forms: [...state.forms.values()],
			transactions: [...state.transactions.values()],
			webhookConfigs: [...state.webhookConfigs.values()],
			deliveries: state.deliveries,
			files: [...state.files.values()].map(files.describe),
			downloadTokens: [...state.downloadTokens.values()],
			signedUrls: [...state.signedUrls.values()],
		};
	}

	const kycRoutes = createKycRoutes({ state, getBaseUrl: () => baseUrl });
	const apiRoutes = compileRoutes([
		...createApiRoutes({ state, clock, files, orgId, moveCheck, notifyAction }),
		...kycRoutes.api,
	]);
	const fileRoutes = compileRoutes(createFileRoutes({ files }));
	const controlRoutes = compileRoutes([
		...createControlRoutes({
			requests,
			snapshot,
			clock,
			state,
			moveCheck,
			notifyAction,
			concurrency,
			files,
			setLatency: (next) => {
				latency = next;
			},
		}),
		...kycRoutes.control,
	]);

	function record(req, res, path, query, input) {
		const entry = {
			method: req.method,
			path,
			query,
			headers: { ...req.headers },
			body: input.recorded,
			at: clock.now().toISOString(),
		};
		requests.push(entry);
		res.on('finish', () => {
			entry.status = res.statusCode;
			events.emit('request', entry);
		});
		// The client went away before the answer (e.g. a held request of a stopped or killed client).
		res.on('close', () => {
			if (!res.writableFinished) entry.closedBeforeAnswer = true;
		});
	}

	function answer(req, path, query, input, tooLarge) {
		if (tooLarge) return reply.failure(413, 'Request body too large');
		if (req.headers['x-sandbox-fail'] === '502') return reply.html(502, BAD_GATEWAY_HTML);
		if ([...state.failingPaths].some((prefix) => path.startsWith(prefix))) return reply.html(502, BAD_GATEWAY_HTML);
		const isApi = API_PREFIXES.some((prefix) => path.startsWith(prefix));
		if (isApi && req.headers['x-api-key'] !== apiKey) return reply.failure(401, 'Invalid or missing API key');
		return dispatch(isApi ? apiRoutes : fileRoutes, req.method, path, query, input);
	}

	async function handle(req, res) {
		const url = new URL(req.url, 'http://sandbox.invalid');
		const path = url.pathname;
		const query = Object.fromEntries(url.searchParams);
		const { buffer, tooLarge } = await readBody(req, maxBodyBytes);
		const input = parseInput(buffer, req.headers['content-type']);
		if (path.startsWith(CONTROL_PREFIX)) {
			writeReply(res, dispatch(controlRoutes, req.method, path, query, input));
			return;
		}
		record(req, res, path, query, input);
		const { ms, hold } = latencyFor(path);
		if (hold) {
			// Acted on now (a candidate exists from here), answered ms later.
			const result = answer(req, path, query, input, tooLarge);
			if (ms > 0) await delay(ms);
			if (!res.destroyed) writeReply(res, result);
			return;
		}
		if (ms > 0) await delay(ms);
		writeReply(res, answer(req, path, query, input, tooLarge));
	}

	const server = http.createServer((req, res) => {
		if (!req.url.startsWith(CONTROL_PREFIX)) concurrency.track(res);
		handle(req, res).catch((error) => {
			if (res.headersSent) res.destroy(error);
			else writeReply(res, reply.failure(500, `Sandbox error: ${error.message}`));
		});
	});

	function listen(port = 0, host = '127.0.0.1') {
		return new Promise((resolve, reject) => {
			server.once('error', reject);
			// A bulk run opens a connection per request, all at once (as n8n's HTTP Request node does too);
			// a backlog above Node's default 511 keeps a busy machine from dropping the burst's handshakes.
			server.listen({ port, host, backlog: 4096 }, () => {
				server.off('error', reject);
				const address = server.address();
				baseUrl = publicBaseUrl ? publicBaseUrl.replace(/\/+$/, '') : `http://${urlHost(address.address)}:${address.port}`;
				resolve({ port: address.port, baseUrl });
			});
		});
	}

	function close() {
		notifier.stop();
		if (!server.listening) return Promise.resolve();
		return new Promise((resolve, reject) => {
			server.close((error) => (error ? reject(error) : resolve()));
			server.closeAllConnections();
		});
	}

	/** Resolves with the deliveries once at least n are recorded; rejects after timeoutMs. */
	function waitForDeliveries(n, timeoutMs = 2000) {
		return new Promise((resolve, reject) => {
			const cleanup = () => {
				clearTimeout(timer);
				events.off('delivery', check);
			};
			const check = () => {
				if (state.deliveries.length < n) return;
				cleanup();
				resolve([...state.deliveries]);
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${n} webhook deliveries (got ${state.deliveries.length})`));
			}, timeoutMs);
			events.on('delivery', check);
			check();
		});
	}

	return {
		listen,
		close,
		get baseUrl() {
			return baseUrl;
		},
		get sampleFileUrl() {
			return files.privateUrl(sampleFile);
		},
		get generatedFileUrl() {
			return generatedFile && files.privateUrl(generatedFile);
		},
		concurrency: () => concurrency.stats(),
		apiKey,
		orgId,
		requests,
		state,
		events,
		snapshot,
		now: () => clock.now(),
		setNow: (next) => clock.setNow(next),
		advanceClock: (minutes) => clock.advance(minutes),
		waitForDeliveries,
	};
}

module.exports = { createSandbox };
