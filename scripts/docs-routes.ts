// Regenerates the README's route table (endpoint, callers, key scope, user roles, meters) from the routes'
// own declarations. tests/checks/security-matrix.test.ts fails when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs'
import { openApiDocuments, renderRouteTable, routesOf, withRouteTable } from './lib/route-catalog.ts'

const docs = await openApiDocuments()
const entries = [...docs].flatMap(([fn, doc]) => routesOf(fn, doc))
writeFileSync('README.md', withRouteTable(readFileSync('README.md', 'utf8'), renderRouteTable(entries)))
console.log(`README route table: ${entries.length} routes`)
