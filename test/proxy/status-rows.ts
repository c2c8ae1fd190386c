/**
 * Reads the status page's table of where bookings came from, as the manager reads it: each row's
 * label, then today's, this week's and this month's words (`1 booking, 0 enquiries, 2 page views`).
 */
export function sourceRows(html: string): string[][] {
  const table = /<section aria-labelledby="by-source">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [
    ...table.matchAll(/<tr><th scope="row">([\s\S]*?)<\/th><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g),
  ].map((match) => match.slice(1).map((cell) => cell.replace(/<br>/g, ', ').replace(/<[^>]+>/g, '')));
}
