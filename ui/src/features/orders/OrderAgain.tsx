// Order Again: fills the cart from an order at today's prices and availability, for the
// gate's place (else the order's own barangay); the cart page names what could not be added.
import { calls, type OrderView } from '../../api/contract.gen';
import { RefillForm } from '../../components/RefillForm';
import { useGate } from '../gate';
import { usePage } from '../../page';

export function OrderAgain({ order }: { order: Pick<OrderView, 'id' | 'number'> }) {
  const page = usePage();
  const { gate } = useGate();
  const barangay = page.vars.barangay;
  return (
    <RefillForm
      call={calls.orderAgain}
      className="inline-form order-again"
      fields={{
        orderId: order.id,
        key: page.vars.key,
        barangay,
        fulfillment: barangay ? gate.fulfillmentId : null,
        street_id: barangay ? gate.streetId : null,
      }}
      label={
        <>
          Order Again<span className="visually-hidden"> order {order.number}</span>
        </>
      }
    />
  );
}
