/**
 * Example `data` for the checks that take Data (JSON). Shown as the placeholder of Data (JSON),
 * never sent by themselves. Presumed, except where the provider's public documentation gives the
 * fields (the degree, the digital addresses and the instant checks' field names): the others are
 * modelled on the checks that are known (address objects of bgv-criminal, document lists of the
 * education checks) and must be confirmed with the provider. None contradicts a public field name.
 */
export const EXAMPLE_ADDRESS = {
	line1: '12 MG Road',
	vtc: 'Bengaluru',
	district: 'Bengaluru Urban',
	state: 'Karnataka',
	pincode: '560001',
	country: 'India',
};
const document = (label: string) => ({ documentList: [{ label, url: 'https://…/private/…' }] });
/** bgv-degree's public shape (level, issueDate, labels Degree and Marksheet). */
const degree = {
	level: 'GRADUATE',
	nameAsPerDocument: 'Asha Verma',
	nameOfInstitute: 'Delhi University',
	registrationNumber: 'DU-2016-0421',
	issueDate: '2016-06-30',
	documentList: [
		{ label: 'Degree', url: 'https://…/private/…' },
		{ label: 'Marksheet', url: 'https://…/private/…' },
	],
};

const EXAMPLES: Record<string, object> = {
	aadhaar: { aadhaarNumber: '1234 5678 9012', ...document('aadhaar') },
	'bank-account': { accountNumber: '000123456789', ifsc: 'HDFC0000123', pennyLess: true },
	'bgv-degree': degree,
	'bgv-degree-with-marksheet': degree,
	'bgv-global-database-check': { nameAsPerDocument: 'Asha Verma', dob: '17-05-1994' },
	'bgv-local-address-digital': EXAMPLE_ADDRESS,
	'bgv-local-address-postal': { currentAddress: EXAMPLE_ADDRESS },
	'bgv-permanent-address-digital': EXAMPLE_ADDRESS,
	'bgv-permanent-address-postal': { permanentAddress: EXAMPLE_ADDRESS },
	'bgv-professional-reference-check': {
		referenceName: 'R. Iyer',
		referenceMobile: '+919876543210',
		referenceEmail: 'r.iyer@example.com',
	},
	'bgv-social-media': { linkedinUrl: 'https://www.linkedin.com/in/…' },
	cin: { cin: 'U72200KA2010PTC012345' },
	din: { din: '01234567' },
	dl: { dlNumber: 'KA0120160012345', dob: '17-05-1994' },
	'employment-check': { uan: '100123456789' },
	'face-match': document('selfie'),
	form26as: { pan: 'ABCDE1234F' },
	gst: { gst: '29ABCDE1234F1Z5' },
	liveness: document('selfie'),
	pan: { pan: 'ABCDE1234F' },
	passport: { passportNumber: 'K1234567', dob: '17-05-1994' },
	upi: { upi: 'asha@okbank' },
	'voter-id': { voterId: 'ABC1234567', state: 'Karnataka' },
};

/** e.g. {"pan": "ABCDE1234F"} for the placeholder of a check's Data (JSON). */
export function dataExample(check: string): string {
	return `e.g. ${JSON.stringify(EXAMPLES[check] ?? document('document'))}`;
}
