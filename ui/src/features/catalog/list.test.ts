import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activeFilters, listHref, showing } from './list';

test('a list address keeps its parameters in one order and drops the defaults', () => {
  assert.equal(listHref('/buy-beer', {}), '/buy-beer');
  assert.equal(listHref('/buy-beer', { page: '3', sort: 'name', filterByType: 'can', barangay: '7' }), '/buy-beer?filterByType=can&sort=name');
  assert.equal(listHref('/buy-beer', { sort: 'name' }, { page: '2' }), '/buy-beer?sort=name&page=2');
  assert.equal(listHref('/buy-beer', { sort: 'name', page: '2' }, { page: '1' }), '/buy-beer?sort=name');
  assert.equal(listHref('/buy-beer', { sort: 'price' }, { sort: 'best' }), '/buy-beer');
  assert.equal(listHref('/buy-beer', { style: 'Pale Pilsen', brand: 'Bagyo Brewing' }, { style: null }), '/buy-beer?brand=Bagyo+Brewing');
  assert.equal(listHref('/buy-beer', {}, { brand: 'A&B / C+D' }), '/buy-beer?brand=A%26B+%2F+C%2BD');
  assert.equal(listHref('/buy-beer', { min: '50', max: '' }), '/buy-beer?min=50');
});

test('filters are counted, and a page says what it shows', () => {
  assert.equal(activeFilters({ sort: 'name', page: '2', filterByType: 'can' }), 0);
  assert.equal(activeFilters({ style: 'IPA', min: '40', max: '90' }), 3);
  assert.equal(showing(1, 0, 0), '0 products');
  assert.equal(showing(1, 1, 1), '1 product');
  assert.equal(showing(1, 26, 26), '26 products');
  assert.equal(showing(25, 48, 120), 'Showing 25–48 of 120 products');
  assert.equal(showing(1, 48, 120), 'Showing 1–48 of 120 products');
});
