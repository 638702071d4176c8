/**
 * exceljs, loaded on first use: importing it costs a few hundred milliseconds, paid otherwise by
 * every start of the server and every test file, though only imports and exports need it.
 */
export async function loadExcel() {
  return (await import('exceljs')).default;
}
