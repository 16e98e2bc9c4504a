import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the dashboard's build puts the static site (git-ignored), and where the local platform
 * serves it from. A module of its own, so serving it does not load the bundler.
 */
export const dashboardOutDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist/dashboard')
