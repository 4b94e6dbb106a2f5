'use strict';

/**
 * A small client for a running n8n: the internal REST API the editor uses (cookie session) and the
 * public API (X-N8N-API-KEY). Used by checks.js and scripts/demo.sh. Plain fetch, Node 20+.
 */

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class HttpError extends Error {
	constructor(method, url, status, text) {
		super(`${method} ${new URL(url).pathname} answered HTTP ${status}: ${text.slice(0, 300)}`);
		this.status = status;
	}
}

class N8nClient {
	constructor(baseUrl) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.cookie = '';
		this.apiKey = '';
	}

	async request(method, path, { body, headers = {}, raw = false } = {}) {
		const url = `${this.baseUrl}${path}`;
		const response = await fetch(url, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const cookies = response.headers.getSetCookie ? response.headers.getSetCookie() : [];
		const auth = cookies.find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		if (raw) return response;
		const text = await response.text();
		if (!response.ok) throw new HttpError(method, url, response.status, text);
		return text ? JSON.parse(text) : undefined;
	}

	/** Internal REST API (what the editor calls); answers are unwrapped from { data }. */
	async rest(method, path, body) {
		const answer = await this.request(method, `/rest${path}`, { body });
		return answer && answer.data;
	}

	/** Public API (needs createApiKey first). */
	async api(method, path, body) {
		return this.request(method, `/api/v1${path}`, { body, headers: { 'x-n8n-api-key': this.apiKey } });
	}

	/**
	 * Activates a workflow through the public API. n8n 2.0 activates only a version kept in its workflow
	 * history, and its import:workflow writes none (2.41 does; 1.x has no history): its CLI's
	 * publish:workflow then fails with "Version … not found" and the public API answers 404. With
	 * `saveVersionFirst` a version is saved first, as the editor's Save does (a new version only when
	 * the nodes change: the first node moves by one grid step).
	 */
	async activate(workflowId, { saveVersionFirst = false } = {}) {
		if (saveVersionFirst) {
			const workflow = await this.rest('GET', `/workflows/${workflowId}`);
			const nodes = workflow.nodes.map((node, index) =>
				index === 0 ? { ...node, position: [node.position[0] + 20, node.position[1]] } : node,
			);
			await this.rest('PATCH', `/workflows/${workflowId}`, { nodes, connections: workflow.connections });
		}
		await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	/** Sets up the owner on a fresh instance, or logs in when the owner exists. Returns 'created' or 'login'. */
	async ownerSession({ email, password, firstName = 'Demo', lastName = 'Owner' }) {
		try {
			await this.rest('POST', '/owner/setup', { email, password, firstName, lastName });
			return 'created';
		} catch (error) {
			if (error.status !== 400) throw error;
		}
		await this.rest('POST', '/login', { emailOrLdapLoginId: email, password });
		return 'login';
	}

	/** A public API key with every scope the instance offers. */
	async createApiKey(label) {
		const scopes = await this.rest('GET', '/api-keys/scopes');
		const created = await this.rest('POST', '/api-keys', { label, scopes, expiresAt: null });
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** What the editor's "Execute workflow" button does. Returns the execution ID. */
	async runManually(workflowId, triggerName) {
		// n8n 2.0 runs the workflow the editor sends along; later releases read it from the database
		// and ignore workflowData.
		const workflowData = await this.rest('GET', `/workflows/${workflowId}`);
		const data = await this.rest('POST', `/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
		return data.executionId;
	}

	/** Polls the public API until the execution has finished; returns it with its data. */
	async waitForExecution(executionId, timeoutMs = 60_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				const execution = await this.api('GET', `/executions/${executionId}?includeData=true`);
				// n8n 1.x writes a finished execution's status before its data: until the data is
				// there, the public API answers the status with no data.
				if (FINISHED.has(execution.status) && execution.data?.resultData) return execution;
			} catch (error) {
				if (error.status !== 404) throw error;
			}
			if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish within ${timeoutMs} ms`);
			await sleep(250);
		}
	}

	/** Every execution of a workflow, newest first, with data. */
	async executions(workflowId) {
		const all = [];
		let cursor;
		do {
			const query = `workflowId=${workflowId}&includeData=true&limit=250${cursor ? `&cursor=${cursor}` : ''}`;
			const page = await this.api('GET', `/executions?${query}`);
			all.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return all;
	}

	/** The bytes of a binary data ID, as the editor downloads them. */
	async binaryData(id) {
		const response = await this.request('GET', `/rest/binary-data?id=${encodeURIComponent(id)}&action=download`, {
			raw: true,
		});
		if (!response.ok) throw new HttpError('GET', response.url, response.status, await response.text());
		return { contentType: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
	}
}

module.exports = { N8nClient, HttpError, sleep };
