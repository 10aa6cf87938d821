import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';

// Read once at start: the console has no build step, and these never change while it runs.
const SCRIPT = readFileSync(new URL('./assets/console.client.js', import.meta.url), 'utf8');
const STYLES = readFileSync(new URL('./assets/console.css', import.meta.url), 'utf8');

/** The console's one script and one stylesheet, from its own origin (CSP allows nothing else). */
export function assetRoutes(): Router {
  const router = express.Router();
  router.get('/assets/console.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/javascript').send(SCRIPT);
  });
  router.get('/assets/console.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('text/css').send(STYLES);
  });
  // Browsers ask for it on every page; an empty answer keeps 404s out of their consoles.
  router.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  return router;
}
