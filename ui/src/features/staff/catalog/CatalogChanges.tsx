import type { CatalogChange, ChangeKind } from '../../../api/contract.gen';

const KIND: Record<ChangeKind, string> = { new: 'New', changed: 'Changed', removed: 'Removed', left_out: 'Left out of the file: kept, not orderable' };

/** Every change of the catalog, record by record, each field before and after (money in pesos, as the server shows it). */
export function CatalogChanges({ changes, caption }: { changes: CatalogChange[]; caption: string }) {
  if (changes.length === 0) return <p role="status">Nothing would change: the catalog already says this.</p>;
  return (
    <table className="catalog-changes">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Record</th>
          <th scope="col">What</th>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      {changes.map((c) => {
        // One group of rows a record: its name heads its fields' rows.
        const rows = c.fields.length > 0 ? c.fields : [null];
        return (
          <tbody key={`${c.section}-${c.key}`}>
            {rows.map((f, i) => (
              <tr key={f?.field ?? ''}>
                {i === 0 && (
                  <th scope="rowgroup" rowSpan={rows.length}>
                    {`${c.section.replace('_', ' ')} ${c.key}`}
                  </th>
                )}
                {i === 0 && <td rowSpan={rows.length}>{KIND[c.kind]}</td>}
                <td>{f?.field.replace(/_/g, ' ') ?? ''}</td>
                <td>{f?.before ?? ''}</td>
                <td>{f?.after ?? ''}</td>
              </tr>
            ))}
          </tbody>
        );
      })}
    </table>
  );
}
