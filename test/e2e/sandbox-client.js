'use strict';

/**
 * The service sandbox as the e2e checks talk to it: its API and its own routes (`/__sandbox/state`,
 * `/__sandbox/requests`, faults, files). `call` throws on an HTTP error and returns the JSON answer.
 */
function sandboxClient(baseUrl) {
	async function call(method, route, body, headers = {}) {
		const response = await fetch(`${baseUrl}${route}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`sandbox ${method} ${route} answered ${response.status}`);
		return response.json();
	}
	return {
		call,
		state: () => call('GET', '/__sandbox/state'),
		requests: async () => (await call('GET', '/__sandbox/requests')).requests,
	};
}

module.exports = { sandboxClient };
