'use strict';

const { reply } = require('./http-utils');

/** Routes outside the API prefixes, reached without an API key: private file URLs and signed URLs. */
function createFileRoutes({ files }) {
	function getPrivateFile() {
		return reply.failure(403, 'Private file: fetch it with the download-file operation or a signed URL');
	}

	function getSignedFile({ params }) {
		const signed = files.resolveSignedId(params.id);
		if (!signed || !signed.file) return reply.failure(404, 'Signed URL not found');
		if (signed.expired) return reply.failure(403, 'Signed URL expired');
		return reply.file(signed.file);
	}

	return [
		{ method: 'GET', path: '/private-files/:id/:filename', handler: getPrivateFile },
		{ method: 'GET', path: '/signed-files/:id', handler: getSignedFile },
	];
}

module.exports = { createFileRoutes };
