import { useQuery } from '@tanstack/react-query';
import type { SiteTextView } from '../../api/contract.gen';
import type { QueryDef } from '../../api/query';
import { QueryState } from '../../components/QueryState';
import { aboutTextQuery, policyTextQuery, retentionTextQuery, termsTextQuery } from './queries';

// The editorial pages whose text is a row in the database.

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split('\n\n').map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  );
}

function TextPage({ text }: { text: QueryDef<SiteTextView> }) {
  return (
    <QueryState query={useQuery(text.options())} loading="Loading…" error="We could not load this page. Please try again.">
      {(data) => (
        <article className="prose">
          <h1>{data.title}</h1>
          <Paragraphs text={data.body} />
        </article>
      )}
    </QueryState>
  );
}

/** The policy, then how long the store keeps what it holds (its retention settings). */
export function PrivacyPolicy() {
  return (
    <>
      <TextPage text={policyTextQuery} />
      <QueryState query={useQuery(retentionTextQuery.options())} loading="Loading…" error="We could not load how long we keep your data. Please try again.">
        {(data) => (
          <section className="prose" aria-labelledby="retention-title">
            <h2 id="retention-title">{data.title}</h2>
            <Paragraphs text={data.body} />
          </section>
        )}
      </QueryState>
    </>
  );
}
export const Terms = () => <TextPage text={termsTextQuery} />;
export const AboutUs = () => <TextPage text={aboutTextQuery} />;
