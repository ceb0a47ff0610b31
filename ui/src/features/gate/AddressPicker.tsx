// The address picker the location gate and the address book share: province, city and barangay
// lists, then the street where the barangay has streets. Its lists start from the gate's steps in
// the query string (`gateProvince`, `gateCity`, `gateBarangay`: without JS a form steps through
// them, the page coming back with the next list) and load from the gates' queries.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_PROVINCE } from '../../api/contract.gen';
import { gateQueries } from './queries';
import type { Vars } from '../../lib/keys';
import { usePage } from '../../page';
import { num, Select } from '../../components/Select';

export function useAddressPicker({ fulfillment, keg = false, street: firstStreet = null }: {
  fulfillment: number;
  /** Kegs: only the cities that take kegs. */
  keg?: boolean;
  /** The street chosen before (what the page posted back). */
  street?: number | null;
}) {
  const v = usePage().vars;
  const [province, setProvince] = useState<number | null>(num(v.gateProvince) ?? DEFAULT_PROVINCE);
  const [city, setCity] = useState<number | null>(num(v.gateCity));
  const [barangay, setBarangay] = useState<number | null>(num(v.gateBarangay));
  const [street, setStreet] = useState<number | null>(firstStreet);
  const vars: Vars = {
    gateFulfillment: String(fulfillment),
    gateProvince: province ? String(province) : undefined,
    gateCity: city ? String(city) : undefined,
    gateBarangay: barangay ? String(barangay) : undefined,
  };
  const provinces = useQuery(gateQueries.provinces.options());
  const cities = useQuery({ ...gateQueries.cities.options(vars), enabled: !keg && province !== null });
  const kegCities = useQuery({ ...gateQueries.kegCities.options(), enabled: keg });
  const barangays = useQuery(gateQueries.barangays.options(vars));
  const streets = useQuery(gateQueries.streets.options(vars));
  // Each choice clears the lists below it.
  const chooseBarangay = (b: number | null) => {
    setBarangay(b);
    setStreet(null);
  };
  const chooseCity = (c: number | null) => {
    setCity(c);
    chooseBarangay(null);
  };
  const chooseProvince = (p: number | null) => {
    setProvince(p);
    chooseCity(null);
  };
  return {
    province,
    city,
    barangay,
    street,
    chooseProvince,
    chooseCity,
    chooseBarangay,
    chooseStreet: setStreet,
    provinces,
    cityList: keg ? kegCities.data?.results.filter((c) => c.city_province === province) : cities.data?.results.locations,
    citiesLoading: keg ? kegCities.isPending : cities.isPending && province !== null,
    barangays,
    streets,
    needsStreet: (streets.data?.results.length ?? 0) > 0,
  };
}

export type AddressPickerState = ReturnType<typeof useAddressPicker>;

/** The province, city and barangay lists (`prefix` keeps their ids apart from another form's). */
export function AreaSelects({ picker: p, prefix }: { picker: AddressPickerState; prefix?: string }) {
  return (
    <>
      <Select
        prefix={prefix}
        name="province"
        label="Province"
        empty="No Province available"
        items={p.provinces.data?.results}
        loading={p.provinces.isPending}
        value={p.province}
        id={(x) => x.id}
        text={(x) => x.province_name}
        onChange={p.chooseProvince}
      />
      <Select
        prefix={prefix}
        name="city"
        label="City"
        empty="No Cities available"
        items={p.cityList}
        loading={p.citiesLoading}
        value={p.city}
        id={(c) => c.city_id}
        text={(c) => c.city_name}
        disabled={p.province === null}
        onChange={p.chooseCity}
      />
      <Select
        prefix={prefix}
        name="barangay"
        label="Barangay"
        empty="No barangay available"
        items={p.barangays.data?.results}
        loading={p.barangays.isFetching}
        value={p.barangay}
        id={(b) => b.id}
        text={(b) => b.barangay_name}
        disabled={p.city === null}
        onChange={p.chooseBarangay}
      />
    </>
  );
}

/** The street list, shown only where the barangay has streets. */
export function StreetSelect({ picker: p, prefix, name }: { picker: AddressPickerState; prefix?: string; name: string }) {
  if (!p.needsStreet) return null;
  return (
    <Select
      prefix={prefix}
      name={name}
      label="Street"
      empty="No street available"
      items={p.streets.data?.results}
      loading={false}
      value={p.street}
      id={(s) => s.id}
      text={(s) => s.street_name}
      onChange={p.chooseStreet}
    />
  );
}
