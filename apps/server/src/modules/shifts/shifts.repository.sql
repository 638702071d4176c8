-- shiftRows (sqlite)
select "shifts"."id", "shifts"."number", "shifts"."store_id", "stores"."name" as "store_name", "shifts"."till", "shifts"."user_id", coalesce(users.full_name, users.name) as "user_name", "shifts"."status", "shifts"."opened_at", "shifts"."closed_at", "shifts"."difference_usd_cents", "shifts"."difference_khr", coalesce(approver.full_name, approver.name) as "approved_by_name", "shifts"."created_at", "shifts"."updated_at", "shifts"."deleted_at" from "shifts" inner join "stores" on "stores"."id" = "shifts"."store_id" left join "users" on "users"."id" = "shifts"."user_id" left join "users" as "approver" on "approver"."id" = "shifts"."approved_by";

-- shiftRows (postgres)
select "shifts"."id", "shifts"."number", "shifts"."store_id", "stores"."name" as "store_name", "shifts"."till", "shifts"."user_id", coalesce(users.full_name, users.name) as "user_name", "shifts"."status", "shifts"."opened_at", "shifts"."closed_at", "shifts"."difference_usd_cents", "shifts"."difference_khr", coalesce(approver.full_name, approver.name) as "approved_by_name", "shifts"."created_at", "shifts"."updated_at", "shifts"."deleted_at" from "shifts" inner join "stores" on "stores"."id" = "shifts"."store_id" left join "users" on "users"."id" = "shifts"."user_id" left join "users" as "approver" on "approver"."id" = "shifts"."approved_by";

-- shiftRow (sqlite)
select * from "shifts" where "id" = ?;

-- shiftRow (postgres)
select * from "shifts" where "id" = $1;

-- drawerPayments (sqlite)
select "order_payments"."kind", "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = ? and "order_payments"."method" in (?, ?) group by "order_payments"."kind", "order_payments"."method";

-- drawerPayments (postgres)
select "order_payments"."kind", "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = $1 and "order_payments"."method" in ($2, $3) group by "order_payments"."kind", "order_payments"."method";

-- drawerPayments, closed (sqlite)
select "order_payments"."kind", "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = ? and "order_payments"."method" in (?, ?) and "order_payments"."created_at" <= ? group by "order_payments"."kind", "order_payments"."method";

-- drawerPayments, closed (postgres)
select "order_payments"."kind", "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = $1 and "order_payments"."method" in ($2, $3) and "order_payments"."created_at" <= $4 group by "order_payments"."kind", "order_payments"."method";

-- drawerChange (sqlite)
select coalesce(sum(change_given_cents), 0) as "usd", coalesce(sum(change_given_khr), 0) as "khr" from "orders" where "change_shift_id" = ?;

-- drawerChange (postgres)
select coalesce(sum(change_given_cents), 0) as "usd", coalesce(sum(change_given_khr), 0) as "khr" from "orders" where "change_shift_id" = $1;

-- movementTotals (sqlite)
select "kind", "currency", sum(amount) as "amount" from "shift_movements" where "shift_id" = ? group by "kind", "currency";

-- movementTotals (postgres)
select "kind", "currency", sum(amount) as "amount" from "shift_movements" where "shift_id" = $1 group by "kind", "currency";

-- shiftSales (sqlite)
select count(*) as "n", coalesce(sum(total_cents), 0) as "total" from "orders" where "shift_id" = ? and "status" = ?;

-- shiftSales (postgres)
select count(*) as "n", coalesce(sum(total_cents), 0) as "total" from "orders" where "shift_id" = $1 and "status" = $2;

-- shiftTenders (sqlite)
select "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = ? and "order_payments"."kind" = ? group by "order_payments"."method" order by "order_payments"."method";

-- shiftTenders (postgres)
select "order_payments"."method", sum(order_payments.amount) as "amount" from "order_payments" where "order_payments"."shift_id" = $1 and "order_payments"."kind" = $2 group by "order_payments"."method" order by "order_payments"."method";

-- shiftMovements (sqlite)
select "shift_movements"."id", "shift_movements"."kind", "shift_movements"."currency", "shift_movements"."amount", "shift_movements"."reason", coalesce(users.full_name, users.name) as "created_by_name", "shift_movements"."created_at" from "shift_movements" left join "users" on "users"."id" = "shift_movements"."created_by" where "shift_movements"."shift_id" = ? order by "shift_movements"."id";

-- shiftMovements (postgres)
select "shift_movements"."id", "shift_movements"."kind", "shift_movements"."currency", "shift_movements"."amount", "shift_movements"."reason", coalesce(users.full_name, users.name) as "created_by_name", "shift_movements"."created_at" from "shift_movements" left join "users" on "users"."id" = "shift_movements"."created_by" where "shift_movements"."shift_id" = $1 order by "shift_movements"."id";

-- openShiftOf (sqlite)
select "id", "number" from "shifts" where "open_user" = ?;

-- openShiftOf (postgres)
select "id", "number" from "shifts" where "open_user" = $1;

-- openShiftOf, at a store (sqlite)
select "id", "number" from "shifts" where "open_user" = ? and "store_id" = ?;

-- openShiftOf, at a store (postgres)
select "id", "number" from "shifts" where "open_user" = $1 and "store_id" = $2;

-- openShiftAt (sqlite)
select "number" from "shifts" where "open_till" = ?;

-- openShiftAt (postgres)
select "number" from "shifts" where "open_till" = $1;
