'use strict';

/** Turns '/a/:id/b' paths into regular expressions once. */
function compileRoutes(routes) {
	return routes.map((route) => {
		const names = [];
		const source = route.path
			.replace(/[.]/g, '\\.')
			.replace(/:(\w+)/g, (_, name) => {
				names.push(name);
				return '([^/]+)';
			});
		return { ...route, regex: new RegExp(`^${source}$`), names };
	});
}

/** Returns { route, params } or undefined (also for undecodable path parameters). */
function matchRoute(routes, method, path) {
	for (const route of routes) {
		const match = route.method === method && route.regex.exec(path);
		if (!match) continue;
		try {
			return { route, params: Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1])])) };
		} catch {
			return undefined;
		}
	}
	return undefined;
}

module.exports = { compileRoutes, matchRoute };
