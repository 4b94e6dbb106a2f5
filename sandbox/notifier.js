'use strict';

const http = require('node:http');
const https = require('node:https');

const DELIVERY_TIMEOUT_MS = 10_000;

/** POSTs JSON once (no keep-alive) and resolves with the status code. */
function postJson(endpoint, headers, payload, signal) {
	return new Promise((resolve, reject) => {
		const url = new URL(endpoint);
		const transport = url.protocol === 'https:' ? https : http;
		const body = JSON.stringify(payload);
		const request = transport.request(
			url,
			{
				method: 'POST',
				agent: false,
				signal,
				timeout: DELIVERY_TIMEOUT_MS,
				headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode));
				response.on('error', reject);
			},
		);
		request.on('timeout', () => request.destroy(new Error(`timed out after ${DELIVERY_TIMEOUT_MS} ms`)));
		request.on('error', reject);
		request.end(body);
	});
}

/**
 * Sends each notification to every registered webhook configuration, once, after delayMs.
 * The contract gives no retry policy, so failed deliveries are recorded and not retried.
 */
function createNotifier({ state, clock, events, delayMs }) {
	const timers = new Set();
	const controllers = new Set();

	async function deliver(config, payload) {
		const controller = new AbortController();
		controllers.add(controller);
		const delivery = { configId: config.id, endpoint: config.endpoint, payload };
		try {
			const headers = { 'x-api-key': config.apiKey, 'x-webhook-key': config.apiKey };
			delivery.statusCode = await postJson(config.endpoint, headers, payload, controller.signal);
		} catch (error) {
			delivery.error = error.message;
		} finally {
			controllers.delete(controller);
		}
		delivery.at = clock.now().toISOString();
		state.deliveries.push(delivery);
		events.emit('delivery', delivery);
	}

	function notify(payload) {
		for (const config of state.webhookConfigs.values()) {
			// Copy now: a later update of the configuration must not change an already queued delivery.
			const snapshot = { ...config };
			const timer = setTimeout(() => {
				timers.delete(timer);
				// deliver() records its own failures; this only guards against a throwing 'delivery' listener.
				deliver(snapshot, payload).catch(() => {});
			}, delayMs);
			timers.add(timer);
		}
	}

	function stop() {
		for (const timer of timers) clearTimeout(timer);
		timers.clear();
		for (const controller of controllers) controller.abort();
	}

	return { notify, stop };
}

module.exports = { createNotifier };
