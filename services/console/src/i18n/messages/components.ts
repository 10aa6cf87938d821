import { defineMessages } from '../catalogue.js';

/** The components area of the console's messages: keys start with `components.`. */
export const components = defineMessages({}, {});
