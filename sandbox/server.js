'use strict';

const http = require('node:http');
const { EventEmitter } = require('node:events');

const { API_PREFIXES, MAX_BODY_BYTES, PURPOSES } = require('./constants');
const { reply, writeReply, readBody } = require('./http-utils');
const { parseMultipart, summarizeMultipart } = require('./multipart');
const { compileRoutes, matchRoute } = require('./router');
const { createFileStore } = require('./file-store');
const { createNotifier } = require('./notifier');
const { createApiRoutes } = require('./api-routes');
const { createFileRoutes } = require('./file-routes');
const { createControlRoutes } = require('./control-routes');
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
	} = options;

	const clock = createClock(now);
	const events = new EventEmitter();
	const state = createState();
	const requests = [];
	let baseUrl;

	const files = createFileStore({ state, clock, getBaseUrl: () => baseUrl });
	const sampleFile = files.add({
		filename: 'sample-document.pdf',
		contentType: 'application/pdf',
		data: buildPdf(['Candidate Verification Service sandbox', 'Sample private document']),
		source: 'sample',
	});
	const notifier = createNotifier({ state, clock, events, delayMs: notifyDelayMs });

	function moveCheck(transaction, verificationName, newState, request) {
		transactions.updateCheck(transaction, verificationName, { state: newState, request, at: clock.now().toISOString() });
		notifier.notify({ transactionId: transaction.transactionId, verificationId: verificationName, newState });
	}

	function snapshot() {
		return {
			now: clock.now().toISOString(),
			orgId,
			sampleFileUrl: files.privateUrl(sampleFile),
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

	const apiRoutes = compileRoutes(createApiRoutes({ state, clock, files, orgId, moveCheck }));
	const fileRoutes = compileRoutes(createFileRoutes({ files }));
	const controlRoutes = compileRoutes(createControlRoutes({ requests, snapshot, clock, state, moveCheck, files }));

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
	}

	function answer(req, path, query, input, tooLarge) {
		if (tooLarge) return reply.failure(413, 'Request body too large');
		if (req.headers['x-sandbox-fail'] === '502') return reply.html(502, BAD_GATEWAY_HTML);
		const isApi = API_PREFIXES.some((prefix) => path.startsWith(prefix));
		if (isApi && req.headers['x-api-key'] !== apiKey) return reply.failure(401, 'Invalid or missing API key');
		return dispatch(isApi ? apiRoutes : fileRoutes, req.method, path, query, input);
	}

	async function handle(req, res) {
		const url = new URL(req.url, 'http://sandbox.invalid');
		const path = url.pathname;
		const query = Object.fromEntries(url.searchParams);
		const { buffer, tooLarge } = await readBody(req, MAX_BODY_BYTES);
		const input = parseInput(buffer, req.headers['content-type']);
		if (path.startsWith(CONTROL_PREFIX)) {
			writeReply(res, dispatch(controlRoutes, req.method, path, query, input));
			return;
		}
		record(req, res, path, query, input);
		writeReply(res, answer(req, path, query, input, tooLarge));
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (res.headersSent) res.destroy(error);
			else writeReply(res, reply.failure(500, `Sandbox error: ${error.message}`));
		});
	});

	function listen(port = 0, host = '127.0.0.1') {
		return new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
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
