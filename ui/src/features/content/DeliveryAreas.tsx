import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/QueryState';
import { deliveryAreasQuery } from './queries';

export function DeliveryAreas() {
  const areas = useQuery(deliveryAreasQuery.options());
  return (
    <article className="prose wide">
      <h1>Delivery Areas</h1>
      <p>
        We deliver, or have your order ready for pickup, in the cities and municipalities below, daily from 8:00 AM to
        10:00 PM. Draft beer in kegs and some limited beers are sold only in some of them: the shop shows what is
        available once you choose your location.
      </p>
      <QueryState query={areas} loading="Loading areas…" error="We could not load the delivery areas. Please try again.">
        {(data) =>
          data.results.map((area) => (
            <section key={area.province_name} aria-labelledby={areaId(area.province_name)}>
              <h2 id={areaId(area.province_name)}>{area.province_name}</h2>
              <ul className="areas">
                {area.cities.map((c) => (
                  <li key={c.city_name}>
                    {c.city_name} <span className="note">({c.fulfillments.join(' and ')})</span>
                  </li>
                ))}
              </ul>
            </section>
          ))
        }
      </QueryState>
    </article>
  );
}

/** A heading's id from a province's name: an HTML id has no spaces (`area-metro-manila`). */
export function areaId(name: string): string {
  return `area-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}
