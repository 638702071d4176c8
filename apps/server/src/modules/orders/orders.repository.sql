-- orderDetail: its head (sqlite)
select "orders"."id", "orders"."number", "orders"."store_id", "stores"."name" as "store_name", "orders"."cashier_id", coalesce(users.full_name, users.name) as "cashier_name", "orders"."customer_id", "customers"."name" as "customer_name", "customers"."phone" as "customer_phone", "customers"."vat_number" as "customer_vat_number", "orders"."order_date", "orders"."status", "orders"."payment_status", "orders"."subtotal_cents", "orders"."discount_cents", "orders"."tax_cents", "orders"."delivery_fee_cents", "orders"."total_cents", "orders"."paid_cents", orders.total_cents - orders.paid_cents as "due_cents", "orders"."change_cents", "orders"."change_khr", "orders"."change_given_cents", "orders"."change_given_khr", "orders"."exchange_rate_khr", "orders"."rate_in_khr", "orders"."rate_out_khr", "orders"."khr_step", "orders"."total_khr", "orders"."vat_rate_bp", "orders"."discount_id", "orders"."note", "orders"."shipping_address", "orders"."delivery_status", "orders"."items_count", "invoices"."number" as "invoice_number", "orders"."cancelled_at", "orders"."cancel_reason", "orders"."offline_sold_at", "orders"."offline_receipt_no", orders.oversold = 1 as "oversold", "orders"."created_at", "orders"."updated_at", "orders"."deleted_at", "stores"."code" as "store_code", "stores"."phone" as "store_phone", "stores"."address" as "store_address", coalesce(approver.full_name, approver.name) as "approved_by_name" from "orders" inner join "stores" on "stores"."id" = "orders"."store_id" inner join "customers" on "customers"."id" = "orders"."customer_id" left join "users" on "users"."id" = "orders"."cashier_id" left join "invoices" on "invoices"."order_id" = "orders"."id" and "invoices"."deleted_at" is null left join "users" as "approver" on "approver"."id" = "orders"."approved_by" where "orders"."id" = ?;

-- orderDetail: its head (postgres)
select "orders"."id", "orders"."number", "orders"."store_id", "stores"."name" as "store_name", "orders"."cashier_id", coalesce(users.full_name, users.name) as "cashier_name", "orders"."customer_id", "customers"."name" as "customer_name", "customers"."phone" as "customer_phone", "customers"."vat_number" as "customer_vat_number", "orders"."order_date", "orders"."status", "orders"."payment_status", "orders"."subtotal_cents", "orders"."discount_cents", "orders"."tax_cents", "orders"."delivery_fee_cents", "orders"."total_cents", "orders"."paid_cents", orders.total_cents - orders.paid_cents as "due_cents", "orders"."change_cents", "orders"."change_khr", "orders"."change_given_cents", "orders"."change_given_khr", "orders"."exchange_rate_khr", "orders"."rate_in_khr", "orders"."rate_out_khr", "orders"."khr_step", "orders"."total_khr", "orders"."vat_rate_bp", "orders"."discount_id", "orders"."note", "orders"."shipping_address", "orders"."delivery_status", "orders"."items_count", "invoices"."number" as "invoice_number", "orders"."cancelled_at", "orders"."cancel_reason", "orders"."offline_sold_at", "orders"."offline_receipt_no", orders.oversold = 1 as "oversold", "orders"."created_at", "orders"."updated_at", "orders"."deleted_at", "stores"."code" as "store_code", "stores"."phone" as "store_phone", "stores"."address" as "store_address", coalesce(approver.full_name, approver.name) as "approved_by_name" from "orders" inner join "stores" on "stores"."id" = "orders"."store_id" inner join "customers" on "customers"."id" = "orders"."customer_id" left join "users" on "users"."id" = "orders"."cashier_id" left join "invoices" on "invoices"."order_id" = "orders"."id" and "invoices"."deleted_at" is null left join "users" as "approver" on "approver"."id" = "orders"."approved_by" where "orders"."id" = $1;

-- orderDetail: its lines (sqlite)
select "order_items"."id", "order_items"."kind", "order_items"."product_id", "order_items"."combo_id", "order_items"."name_en", "order_items"."name_kh", "order_items"."sku", "order_items"."unit_id", "units"."name_en" as "unit_name_en", "units"."name_kh" as "unit_name_kh", coalesce(units.decimals, 0) as "decimals", "order_items"."factor", "order_items"."quantity", "order_items"."unit_price_cents", "order_items"."discount_id", "order_items"."discount_name", "order_items"."line_discount_cents", "order_items"."order_discount_cents", "order_items"."net_cents", "order_items"."tax_cents", "order_items"."total_cents", "order_items"."taxable", "order_items"."returned_quantity", "order_items"."price_source", "order_items"."list_price_cents", "order_items"."price_list_en", "order_items"."price_list_kh", "order_items"."oversold", "order_items"."serials" from "order_items" left join "units" on "units"."id" = "order_items"."unit_id" where "order_items"."order_id" = ? order by "order_items"."id";

-- orderDetail: its lines (postgres)
select "order_items"."id", "order_items"."kind", "order_items"."product_id", "order_items"."combo_id", "order_items"."name_en", "order_items"."name_kh", "order_items"."sku", "order_items"."unit_id", "units"."name_en" as "unit_name_en", "units"."name_kh" as "unit_name_kh", coalesce(units.decimals, 0) as "decimals", "order_items"."factor", "order_items"."quantity", "order_items"."unit_price_cents", "order_items"."discount_id", "order_items"."discount_name", "order_items"."line_discount_cents", "order_items"."order_discount_cents", "order_items"."net_cents", "order_items"."tax_cents", "order_items"."total_cents", "order_items"."taxable", "order_items"."returned_quantity", "order_items"."price_source", "order_items"."list_price_cents", "order_items"."price_list_en", "order_items"."price_list_kh", "order_items"."oversold", "order_items"."serials" from "order_items" left join "units" on "units"."id" = "order_items"."unit_id" where "order_items"."order_id" = $1 order by "order_items"."id";

-- orderDetail: its payments (sqlite)
select "order_payments"."id", "order_payments"."kind", "order_payments"."method", "order_payments"."amount", "order_payments"."amount_cents", "order_payments"."transaction_id", coalesce(users.full_name, users.name) as "received_by_name", "order_payments"."created_at" from "order_payments" left join "users" on "users"."id" = "order_payments"."received_by" where "order_payments"."order_id" = ? order by "order_payments"."id";

-- orderDetail: its payments (postgres)
select "order_payments"."id", "order_payments"."kind", "order_payments"."method", "order_payments"."amount", "order_payments"."amount_cents", "order_payments"."transaction_id", coalesce(users.full_name, users.name) as "received_by_name", "order_payments"."created_at" from "order_payments" left join "users" on "users"."id" = "order_payments"."received_by" where "order_payments"."order_id" = $1 order by "order_payments"."id";

-- orderDetail: its invoice (sqlite)
select "id", "number", "total_cents", "items_count", "paid_at" from "invoices" where "order_id" = ? and "deleted_at" is null;

-- orderDetail: its invoice (postgres)
select "id", "number", "total_cents", "items_count", "paid_at" from "invoices" where "order_id" = $1 and "deleted_at" is null;

-- cashiers (sqlite)
select "users"."id", coalesce(users.full_name, users.name) as "name" from "users" where exists (select "orders"."id" from "orders" where "orders"."cashier_id" = "users"."id") order by "name";

-- cashiers (postgres)
select "users"."id", coalesce(users.full_name, users.name) as "name" from "users" where exists (select "orders"."id" from "orders" where "orders"."cashier_id" = "users"."id") order by "name";

-- cartProducts (sqlite)
select "products".*, "units"."decimals" as "unit_decimals" from "products" inner join "units" on "units"."id" = "products"."unit_id" where "products"."id" in (?, ?) and "products"."deleted_at" is null;

-- cartProducts (postgres)
select "products".*, "units"."decimals" as "unit_decimals" from "products" inner join "units" on "units"."id" = "products"."unit_id" where "products"."id" in ($1, $2) and "products"."deleted_at" is null;

-- cartCombos (sqlite)
select * from "combos" where "id" in (?) and "deleted_at" is null;

-- cartCombos (postgres)
select * from "combos" where "id" in ($1) and "deleted_at" is null;

-- comboParts (sqlite)
select "combo_items"."combo_id", "combo_items"."product_id", "combo_items"."factor", "combo_items"."quantity", "products"."taxable", "products"."serial_tracked" from "combo_items" inner join "products" on "products"."id" = "combo_items"."product_id" where "combo_items"."combo_id" in (?);

-- comboParts (postgres)
select "combo_items"."combo_id", "combo_items"."product_id", "combo_items"."factor", "combo_items"."quantity", "products"."taxable", "products"."serial_tracked" from "combo_items" inner join "products" on "products"."id" = "combo_items"."product_id" where "combo_items"."combo_id" in ($1);

-- cartUnits (sqlite)
select "id", "base_unit_id", "factor", "name_en", "name_kh" from "units" where "deleted_at" is null and "id" in (?, ?);

-- cartUnits (postgres)
select "id", "base_unit_id", "factor", "name_en", "name_kh" from "units" where "deleted_at" is null and "id" in ($1, $2);

-- cartDiscounts (sqlite)
select * from "discounts" where "id" in (?) and "deleted_at" is null;

-- cartDiscounts (postgres)
select * from "discounts" where "id" in ($1) and "deleted_at" is null;

-- orderStatus (sqlite)
select "status" from "orders" where "id" = ?;

-- orderStatus (postgres)
select "status" from "orders" where "id" = $1;

-- orderLines (sqlite)
select * from "order_items" where "order_id" = ?;

-- orderLines (postgres)
select * from "order_items" where "order_id" = $1;

-- orderLineIds (sqlite)
select "id" from "order_items" where "order_id" = ?;

-- orderLineIds (postgres)
select "id" from "order_items" where "order_id" = $1;

-- refundedCents (sqlite)
select coalesce(sum(amount_cents), 0) as "n" from "order_payments" where "order_id" = ? and "kind" = ?;

-- refundedCents (postgres)
select coalesce(sum(amount_cents), 0) as "n" from "order_payments" where "order_id" = $1 and "kind" = $2;

-- invoiceSource (sqlite)
select "orders"."store_id", "stores"."code", "orders"."total_cents", "orders"."tax_cents", "orders"."items_count" from "orders" inner join "stores" on "stores"."id" = "orders"."store_id" where "orders"."id" = ?;

-- invoiceSource (postgres)
select "orders"."store_id", "stores"."code", "orders"."total_cents", "orders"."tax_cents", "orders"."items_count" from "orders" inner join "stores" on "stores"."id" = "orders"."store_id" where "orders"."id" = $1;

-- hasInvoice (sqlite)
select "id" from "invoices" where "order_id" = ?;

-- hasInvoice (postgres)
select "id" from "invoices" where "order_id" = $1;

-- takenBy (sqlite)
select * from "order_item_batches" where "order_item_id" in (?, ?) order by "id";

-- takenBy (postgres)
select * from "order_item_batches" where "order_item_id" in ($1, $2) order by "id";
