import { useQuery } from '@tanstack/react-query';
import type { SiteTextView } from '../../api/contract.gen';
import type { QueryDef } from '../../api/query';
import { QueryState } from '../../components/QueryState';
import { aboutTextQuery, policyTextQuery, termsTextQuery } from './queries';

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

export const PrivacyPolicy = () => <TextPage text={policyTextQuery} />;
export const Terms = () => <TextPage text={termsTextQuery} />;
export const AboutUs = () => <TextPage text={aboutTextQuery} />;
