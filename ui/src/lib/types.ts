// Shapes of the API answers (SPEC 3). Money fields are integer centavos.

export interface Named {
  id: number;
  name: string;
}

export interface Product {
  id: number;
  slug: string;
  product_name: string;
  sku: string;
  brand: string;
  size: string;
  price: number;
  price_per_case: number;
  unit_per_case: number;
  types: Named;
  packaging: Named;
  product_image: string | null;
  description: string;
  custom_description: string;
  orderable: boolean;
}

export interface FilterType {
  id: number;
  name: string;
  value: 'keg' | 'bottle' | 'can';
}

export interface ProductList {
  products: Product[];
  recommended_products: Product[];
  best_sellers: Product[];
  filter_types: FilterType[];
  brands: string[];
}

export interface Packaging {
  id: number;
  name: string;
  filter_type: string;
  image: string;
  custom_description: string;
}

export interface Results<T> {
  results: T[];
}
