#!/usr/bin/env node
'use strict';

// Prints N free TCP ports on 127.0.0.1, one a line. All N are held open together before any is
// released, so they are distinct; another process could still grab one before it is used. They are
// taken below the kernel's range for outgoing connections (ip_local_port_range, 32768-60999 by
// default): a port the kernel hands out itself (listen on port 0) can become the local port of a
// client's connection (to Redis, Postgres, the sandbox) before the server that was to use it starts,
// which once stopped the queue-mode suite ("n8n Task Broker's port … is already in use").
const fs = require('node:fs');
const net = require('node:net');

const count = Number(process.argv[2] || 1);

/** The lowest port the kernel hands out for outgoing connections (32768 when it cannot be read). */
function ephemeralStart() {
	try {
		const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
		return Number(low) > 2048 ? Number(low) : 32768;
	} catch {
		return 32768;
	}
}

const LOW = 20000;
const HIGH = Math.max(LOW + 1000, ephemeralStart()) - 1;

function tryListen(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

async function main() {
	const servers = [];
	for (let tries = 0; servers.length < count; tries += 1) {
		if (tries > 1000) throw new Error(`no ${count} free ports between ${LOW} and ${HIGH}`);
		const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
		if (servers.some((server) => server.address().port === port)) continue;
		const server = await tryListen(port);
		if (server) servers.push(server);
	}
	const ports = servers.map((server) => server.address().port);
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
	process.stdout.write(`${ports.join('\n')}\n`);
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
