'use strict';

const { randomBytes } = require('node:crypto');

const randomHex = (bytes) => randomBytes(bytes).toString('hex');

/** 24 hex characters shaped like a MongoDB ObjectId: 4 bytes of seconds, then 8 random bytes. */
function objectId(date) {
	const seconds = Math.floor(date.getTime() / 1000) >>> 0;
	return seconds.toString(16).padStart(8, '0') + randomHex(8);
}

const transactionId = () => `TXN${randomHex(8).toUpperCase()}`;

module.exports = { randomHex, objectId, transactionId };
