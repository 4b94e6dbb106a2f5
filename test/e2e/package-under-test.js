'use strict';

/**
 * What the browser and agent suites know about the package and the e2e instance: the owner
 * checks.js sets up, the imported credential, and the action node's operations as the built node
 * describes them (so labels can change without touching the tests).
 */

const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const E2E_OWNER = { email: 'e2e@example.com', password: 'E2e-Passw0rd-cv' };
const SANDBOX_CREDENTIAL = { id: 'cvCredential0001', name: 'Candidate Verification account' };

function actionNodeDescription() {
	const file = path.join(ROOT, 'dist/nodes/CandidateVerification/CandidateVerification.node.js');
	const { CandidateVerification } = require(file);
	return new CandidateVerification().description;
}

/** Every resource with each of its operations: [{ resource, operation }] (name, value, action). */
function describedOperations(description = actionNodeDescription()) {
	const { properties } = description;
	const resources = properties.find((property) => property.name === 'resource').options;
	return resources.flatMap((resource) => {
		const selector = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		return selector.options.map((operation) => ({ resource, operation }));
	});
}

module.exports = {
	ROOT,
	E2E_OWNER,
	SANDBOX_CREDENTIAL,
	actionNodeDescription,
	describedOperations,
};
