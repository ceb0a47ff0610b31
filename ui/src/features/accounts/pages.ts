// The account pages: a guest's (log in, registration, password reset) and a member's.
import { calls } from '../../api/contract.gen';
import { gateQueries } from '../gate/queries';
import { action, GUEST, MEMBER, route, type FeaturePage } from '../../lib/route';
import { addressesQuery, pendingRegistrationQuery, userQuery } from './queries';

/** What the address forms list: the steps come from the query (`province`, `city`, `barangay`). */
const ADDRESS_STEPS = [
  gateQueries.provinces.template,
  gateQueries.cities.template,
  gateQueries.barangays.template,
  gateQueries.streets.template,
];

/**
 * A member's cart after logging in: a guest cart that could not join theirs sends them to the
 * cart page, which asks which to keep; one that did not all fit, to the cart page, which says so.
 */
const CART_JOINED = {
  answerTo: [
    { field: '/data/cart_conflict', to: '/cart?done=conflict' },
    { field: '/data/cart_message', to: '/cart?done=merged' },
  ],
};

/** The store's words for a registration that failed for another reason than its fields or its link. */
const REGISTRATION_FAILED = 'Something went wrong creating your account. Please try again.';

export const pages: FeaturePage[] = [
  // After login, to /checkout when login began there, else /buy-beer.
  {
    order: 180,
    route: route('login', '/login', () => import('./Login').then((m) => m.Login), 'Log In', 'Log in to your Tala Brewing Co. account.', [], {
      ...GUEST,
      params: ['from'],
      actions: [action(calls.login, '/buy-beer', { ...CART_JOINED, doneBy: { field: 'from', to: { checkout: '/checkout', cart: '/cart' } } })],
    }),
  },
  // Only ever sent on (its form posts log out): the not-found page stands in for its page.
  {
    order: 190,
    route: route('logout', '/logout', () => import('../../components/NotFound').then((m) => m.NotFound), 'Log Out', 'Log out.', [], {
      sitemap: false,
      redirect: '/',
      actions: [action(calls.logout, '/login?done=logout')],
    }),
  },
  // The form mails a link; the link's page (with its `token`) creates the account.
  {
    order: 200,
    route: route('registration', '/registration', () => import('./Registration').then((m) => m.Registration), 'Create Account', 'Create a Tala Brewing Co. account.', [pendingRegistrationQuery.template], {
      ...GUEST,
      params: ['token'],
      actions: [
        action(calls.preRegister, '/registration?done=sent', { fallback: REGISTRATION_FAILED }),
        action(calls.registration, '/setup-address?done=welcome', { ...CART_JOINED, fallback: REGISTRATION_FAILED, linkToken: 'token' }),
      ],
    }),
  },
  // Without a link the page mails one; with its `suid` it sets the new password.
  {
    order: 210,
    route: route('reset-password', '/reset-password', () => import('./Passwords').then((m) => m.ResetPassword), 'Reset Password', 'Choose a new password for your account.', [], {
      params: ['suid'],
      actions: [action(calls.resetLink, '/reset-password?done=sent'), action(calls.resetPassword, '/login?done=reset')],
      sitemap: false,
      policy: false,
    }),
  },
  {
    order: 220,
    route: route('change-password', '/change-password', () => import('./Passwords').then((m) => m.ChangePassword), 'Change Password', 'Change the password of your account.', [], {
      ...MEMBER,
      actions: [action(calls.changePassword, '/my-account?done=password')],
    }),
  },
  {
    order: 230,
    route: route('my-account', '/my-account', () => import('./MyAccount').then((m) => m.MyAccount), 'My Account', 'Your Tala Brewing Co. account.', [userQuery.template], {
      ...MEMBER,
      actions: [action(calls.updateUser, '/my-account?done=profile')],
    }),
  },
  // Its form is answered by the server (api::accounts::my_data_form): the page with the data, or the file.
  {
    order: 265,
    route: route('my-data', '/my-account/my-data', () => import('./MyData').then((m) => m.MyData), 'Download My Data', 'What Tala Brewing Co. holds about you.', [], {
      ...MEMBER,
    }),
  },
  {
    order: 260,
    route: route('addresses', '/my-account/addresses', () => import('./Addresses').then((m) => m.Addresses), 'My Addresses', 'Your saved addresses.', [addressesQuery.template, ...ADDRESS_STEPS], {
      ...MEMBER,
      actions: [
        action(calls.createAddress, '/my-account/addresses?done=added'),
        action(calls.updateAddress, '/my-account/addresses?done=saved'),
        action(calls.deleteAddress, '/my-account/addresses?done=deleted'),
      ],
    }),
  },
  // Deleting the account takes a ticked confirmation box.
  {
    order: 270,
    route: route('delete-account', '/my-account/delete-account', () => import('./MyAccount').then((m) => m.DeleteAccount), 'Delete Account', 'Delete your account.', [], {
      ...MEMBER,
      actions: [
        action(calls.deleteUser, '/?accountSuccessDelete=yes', {
          required: { confirm: 'Tick the box to confirm that you want to delete your account.' },
        }),
      ],
    }),
  },
  // The first address becomes the location the shop is shown for, as USE THIS ADDRESS does.
  {
    order: 280,
    route: route('setup-address', '/setup-address', () => import('./Addresses').then((m) => m.SetupAddress), 'Your Address', 'Save your delivery address.', ADDRESS_STEPS, {
      ...MEMBER,
      actions: [action(calls.createAddress, '/buy-beer', { location: true })],
    }),
  },
];
