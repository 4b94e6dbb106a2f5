'use strict';

/**
 * The candidate rows and the Profile → Create mapping shared by the benchmark (bench/workflows.js) and the
 * per-item cost guard (test/perf/per-item-cost.test.ts), so both measure the same requests.
 */

/** Row i as a spreadsheet gives it. Self-contained: its source is also put into the benchmark's Code node. */
function candidateRow(i) {
	return {
		name: 'Candidate ' + i,
		gender: ['Female', 'Male', 'Other'][i % 3],
		mobile: '+9198' + String(10000000 + i),
		profession: 'Engineer',
		email: 'candidate' + i + '@example.com',
		dob: '17-05-1994',
		fatherName: 'Father ' + i,
	};
}

const ADDITIONAL_FIELDS = ['mobile', 'email', 'profession', 'dob', 'fatherName'];
const fromItem = (field) => `={{ $json.${field} }}`;

/** Profile → Create with every field mapped from the item, as a user maps spreadsheet columns. */
function createProfileParameters(formId) {
	return {
		resource: 'profile',
		operation: 'create',
		formId,
		name: fromItem('name'),
		gender: fromItem('gender'),
		additionalFields: Object.fromEntries(
			ADDITIONAL_FIELDS.map((field) => [field, fromItem(field)]),
		),
	};
}

/** Profile → Create as a bulk run is set up: Mapping Mode → Map Automatically reads the row's columns. */
function createProfileAutomaticParameters(formId) {
	return { resource: 'profile', operation: 'create', formId, mappingMode: 'autoMapInputData' };
}

/** The same request body as an expression over the item (what the HTTP Request node is given). */
const CREATE_BODY_OBJECT =
	'{ name: $json.name, gender: $json.gender, mobile: $json.mobile, profession: $json.profession, email: $json.email, verificationFields: { dob: $json.dob, fatherName: $json.fatherName } }';

const createProfilePath = (formId) => `/verification/api/1.0/ekyc-forms/${formId}/diy-candidate`;

module.exports = {
	candidateRow,
	createProfileParameters,
	createProfileAutomaticParameters,
	CREATE_BODY_OBJECT,
	createProfilePath,
};
