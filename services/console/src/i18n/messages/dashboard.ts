import { defineMessages } from '../catalogue.js';

/** The dashboard area of the console's messages: keys start with `dashboard.`. */
export const dashboard = defineMessages({}, {});
