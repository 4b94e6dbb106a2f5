import { resourceOf } from '../../helpers/descriptions';
import * as getAll from './getAll.operation';

/** Its name in the Resource selector, its operations in the selector's order, and its fields. */
export const { displayName, operations, description } = resourceOf('purpose', 'Purpose', {
	getAll,
});
