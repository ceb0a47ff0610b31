/** A list's links: `[address, label]`, each an item (the header's, the footer's and the account drawer's menus). */
export function Links({ items }: { items: [string, string][] }) {
  return (
    <>
      {items.map(([href, label]) => (
        <li key={href}>
          <a href={href}>{label}</a>
        </li>
      ))}
    </>
  );
}
