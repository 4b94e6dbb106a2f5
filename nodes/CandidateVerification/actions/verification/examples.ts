/**
 * Example `data` for the checks whose submission shape the contract does not give. Shown as the
 * placeholder of Data (JSON), never sent by themselves. Only the education shape comes from the
 * provider's public documentation; the others are presumed from the checks that are known (address
 * objects of bgv-criminal, document lists of bgv-twelfth) and must be confirmed with the provider.
 */
const ADDRESS = {
	line1: '12 MG Road',
	vtc: 'Bengaluru',
	district: 'Bengaluru Urban',
	state: 'Karnataka',
	pincode: '560001',
	country: 'India',
};
const document = (label: string) => ({ documentList: [{ label, url: 'https://…/private/…' }] });
const education = (level: string) => ({
	level,
	nameAsPerDocument: 'Asha Verma',
	nameOfInstitute: 'Delhi University',
	registrationNumber: 'DU-2016-0421',
	yearOfPassing: '2016',
	...document('degree'),
});

const EXAMPLES: Record<string, object> = {
	aadhaar: { aadhaarNumber: '1234 5678 9012', ...document('aadhaar') },
	'bank-account': { accountNumber: '000123456789', ifsc: 'HDFC0000123' },
	'bgv-degree': education('GRADUATION'),
	'bgv-degree-with-marksheet': education('GRADUATION'),
	'bgv-global-database-check': { nameAsPerDocument: 'Asha Verma', dob: '17-05-1994' },
	'bgv-local-address-digital': { currentAddress: ADDRESS },
	'bgv-local-address-postal': { currentAddress: ADDRESS },
	'bgv-permanent-address-digital': { permanentAddress: ADDRESS },
	'bgv-permanent-address-postal': { permanentAddress: ADDRESS },
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
	gst: { gstin: '29ABCDE1234F1Z5' },
	liveness: document('selfie'),
	pan: { pan: 'ABCDE1234F' },
	passport: { passportNumber: 'K1234567', dob: '17-05-1994' },
	upi: { upiId: 'asha@okbank' },
	'voter-id': { epicNumber: 'ABC1234567' },
};

/** e.g. {"pan": "ABCDE1234F"} for the placeholder of a check's Data (JSON). */
export function dataExample(check: string): string {
	return `e.g. ${JSON.stringify(EXAMPLES[check] ?? document('document'))}`;
}
