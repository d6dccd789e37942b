create table t(a integer primary key, b text, c real);
with recursive n(i) as (select 1 union all select i+1 from n where i<3000) insert into t select i, 'row'||i||hex(randomblob(8)), i*1.5 from n;
create index tb on t(b);
select count(*), sum(length(b)) from t where a % 7 = 0;
select b from t order by c desc limit 3;
