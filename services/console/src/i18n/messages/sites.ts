import { defineMessages } from '../catalogue.js';

/** The sites area of the console's messages: keys start with `sites.`. */
export const sites = defineMessages({}, {});
